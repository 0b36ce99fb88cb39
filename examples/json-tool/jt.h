/* libjt: a small JSON toolkit (parser, document model, writer, query language) with the
 * byte utilities a command-line JSON tool needs (UTF-8, checksums, base64, LZ compression). */
#ifndef JT_H
#define JT_H

#include <stddef.h>
#include <stdint.h>

/* Growable byte buffer; every function returns 0 on success, -1 when out of memory. */
typedef struct {
  char *data;
  size_t len, cap;
} jt_buf;

void jt_buf_init(jt_buf *b);
void jt_buf_free(jt_buf *b);
void jt_buf_clear(jt_buf *b);
int jt_buf_reserve(jt_buf *b, size_t extra);
int jt_buf_putc(jt_buf *b, int c);
int jt_buf_put(jt_buf *b, const void *p, size_t n);
int jt_buf_puts(jt_buf *b, const char *s);
int jt_buf_repeat(jt_buf *b, int c, size_t n);
int jt_buf_printf(jt_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *jt_buf_cstr(jt_buf *b);
char *jt_buf_detach(jt_buf *b, size_t *len);

/* UTF-8 */
int jt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
int jt_utf8_encode(uint32_t cp, char out[4]);
int jt_utf8_valid(const char *s, size_t n);
size_t jt_utf8_count(const char *s, size_t n);

/* Checksums and hashes */
uint32_t jt_crc32(uint32_t crc, const void *p, size_t n);
uint32_t jt_adler32(uint32_t adler, const void *p, size_t n);
uint32_t jt_fnv1a32(const void *p, size_t n);
uint64_t jt_fnv1a64(const void *p, size_t n);

/* Text encodings */
int jt_b64_encode(jt_buf *out, const void *p, size_t n);
int jt_b64_decode(jt_buf *out, const char *s, size_t n);
int jt_hex_encode(jt_buf *out, const void *p, size_t n);
int jt_hex_decode(jt_buf *out, const char *s, size_t n);

/* LZ77 compression (self-describing stream: original length, then tokens) */
int jt_lz_compress(jt_buf *out, const void *p, size_t n);
int jt_lz_decompress(jt_buf *out, const void *p, size_t n);

/* Documents: every value lives in the arena of one document and dies with it. */
typedef enum {
  JT_NULL, JT_FALSE, JT_TRUE, JT_NUMBER, JT_STRING, JT_ARRAY, JT_OBJECT
} jt_type;

typedef struct jt_value jt_value;
typedef struct jt_doc jt_doc;

typedef struct {
  size_t line, col;
  char msg[80];
} jt_error;

jt_doc *jt_doc_new(void);
void jt_doc_free(jt_doc *d);
size_t jt_doc_bytes(const jt_doc *d);
void *jt_doc_alloc(jt_doc *d, size_t n);

jt_value *jt_new_null(jt_doc *d);
jt_value *jt_new_bool(jt_doc *d, int b);
jt_value *jt_new_number(jt_doc *d, double x);
jt_value *jt_new_string(jt_doc *d, const char *s, size_t n);
jt_value *jt_new_array(jt_doc *d);
jt_value *jt_new_object(jt_doc *d);
int jt_array_push(jt_doc *d, jt_value *arr, jt_value *v);
int jt_object_set(jt_doc *d, jt_value *obj, const char *key, size_t klen, jt_value *v);
jt_value *jt_copy(jt_doc *d, const jt_value *v);

jt_type jt_typeof(const jt_value *v);
const char *jt_type_name(jt_type t);
int jt_is_null(const jt_value *v);
int jt_is_bool(const jt_value *v);
int jt_is_number(const jt_value *v);
int jt_is_string(const jt_value *v);
int jt_is_array(const jt_value *v);
int jt_is_object(const jt_value *v);
int jt_truthy(const jt_value *v);
double jt_number(const jt_value *v);
const char *jt_string(const jt_value *v, size_t *len);
size_t jt_length(const jt_value *v);
jt_value *jt_at(const jt_value *v, size_t i);
jt_value *jt_value_at(const jt_value *obj, size_t i);
const char *jt_key_at(const jt_value *obj, size_t i, size_t *len);
jt_value *jt_get(const jt_value *obj, const char *key);
jt_value *jt_getn(const jt_value *obj, const char *key, size_t klen);
int jt_equal(const jt_value *a, const jt_value *b);
int jt_compare(const jt_value *a, const jt_value *b);

/* Parsing and writing */
jt_value *jt_parse(jt_doc *d, const char *text, size_t len, jt_error *err);

enum { JT_PRETTY = 1, JT_SORT_KEYS = 2, JT_ASCII = 4 };
int jt_write(jt_buf *out, const jt_value *v, int flags);
int jt_write_string(jt_buf *out, const char *s, size_t n, int flags);
int jt_write_number(jt_buf *out, double x);

/* Queries: a jq-like filter language; the result is an array of every output. */
jt_value *jt_query(jt_doc *d, const jt_value *input, const char *expr, jt_error *err);

#endif
