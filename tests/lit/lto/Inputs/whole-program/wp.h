unsigned wp_hash(const char *s);
void wp_set(const char *key, long value);
long wp_get(const char *key, long fallback);
long wp_sum_all(void);
int wp_count(void);
long wp_eval(const char *text);
long wp_eval_or(const char *text, long fallback);
long wp_version(void);
