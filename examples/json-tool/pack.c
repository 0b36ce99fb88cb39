/* pack: the document minified, LZ-compressed and base64-encoded with a CRC-32 of the
 * minified text, so it survives e-mail and chat; unpack checks the CRC before printing. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { LINE = 64 };

int cmd_pack(int argc, char **argv) {
  if (argc != 1) {
    fprintf(stderr, "usage: jt pack FILE\n");
    return 2;
  }
  jt_doc *d = jt_doc_new();
  jt_value *v = d ? load_json(d, argv[0]) : NULL;
  if (!v) {
    jt_doc_free(d);
    return 1;
  }
  jt_buf text, packed, b64;
  jt_buf_init(&text);
  jt_buf_init(&packed);
  jt_buf_init(&b64);
  int rc = jt_write(&text, v, 0);
  uint32_t crc = jt_crc32(0, text.data, text.len);
  unsigned char trailer[4] = {(unsigned char)crc, (unsigned char)(crc >> 8),
                              (unsigned char)(crc >> 16), (unsigned char)(crc >> 24)};
  rc = rc || jt_lz_compress(&packed, text.data, text.len) || jt_buf_put(&packed, trailer, 4) ||
       jt_b64_encode(&b64, packed.data, packed.len);
  if (!rc) {
    printf("# jt pack: %zu bytes minified, %zu compressed, crc32 %08" PRIx32 "\n", text.len,
           packed.len - 4, crc);
    for (size_t i = 0; i < b64.len; i += LINE)
      printf("%.*s\n", (int)(b64.len - i < LINE ? b64.len - i : LINE), b64.data + i);
  }
  jt_buf_free(&text);
  jt_buf_free(&packed);
  jt_buf_free(&b64);
  jt_doc_free(d);
  return rc ? 1 : 0;
}

int cmd_unpack(int argc, char **argv) {
  if (argc != 1) {
    fprintf(stderr, "usage: jt unpack FILE\n");
    return 2;
  }
  jt_buf in, raw, text;
  jt_buf_init(&in);
  jt_buf_init(&raw);
  jt_buf_init(&text);
  int rc = read_input(argv[0], &in);
  const char *why = NULL;
  if (!rc) {
    /* Comment lines (the header pack prints) are not part of the data. */
    jt_buf data;
    jt_buf_init(&data);
    const char *p = in.data, *end = in.data + in.len;
    while (p && p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      const char *eol = nl ? nl : end;
      if (*p != '#')
        jt_buf_put(&data, p, (size_t)(eol - p));
      p = eol + 1;
    }
    if (jt_b64_decode(&raw, data.data ? data.data : "", data.len) || raw.len < 4)
      why = "not base64";
    else if (jt_lz_decompress(&text, raw.data, raw.len - 4))
      why = "corrupt compressed data";
    else {
      const unsigned char *t = (const unsigned char *)raw.data + raw.len - 4;
      uint32_t want = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
                      (uint32_t)t[3] << 24;
      if (jt_crc32(0, text.data, text.len) != want)
        why = "checksum mismatch";
    }
    jt_buf_free(&data);
  }
  if (why) {
    printf("jt unpack: %s: %s\n", argv[0], why);
    rc = 1;
  } else if (!rc) {
    jt_doc *d = jt_doc_new();
    jt_error err;
    jt_value *v = d ? jt_parse(d, text.data ? text.data : "", text.len, &err) : NULL;
    jt_buf out;
    jt_buf_init(&out);
    if (v && jt_write(&out, v, JT_PRETTY) == 0)
      puts(jt_buf_cstr(&out));
    else
      rc = 1;
    jt_buf_free(&out);
    jt_doc_free(d);
  }
  jt_buf_free(&in);
  jt_buf_free(&raw);
  jt_buf_free(&text);
  return rc ? 1 : 0;
}
