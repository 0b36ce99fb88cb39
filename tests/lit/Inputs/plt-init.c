// A hash context whose exported init is called by its own digest and reset, as in nettle's
// md4.c and sha512.c: clang -Oz inlines init; a pipeline that does not keeps the calls, a
// smaller object, and in a shared library (-fPIC) each call goes through the PLT.
struct ctx { unsigned s[4]; unsigned long n; };
static const unsigned iv[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
void ctx_init(struct ctx *c) { __builtin_memcpy(c->s, iv, sizeof iv); c->n = 0; }
void ctx_digest(struct ctx *c, unsigned *out) {
  for (int i = 0; i < 4; i++) out[i] = c->s[i] ^ (unsigned)c->n;
  ctx_init(c);
}
void ctx_reset(struct ctx *c) { ctx_init(c); }
