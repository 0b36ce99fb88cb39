/* probe.h: included by main.c (a dependency ninja must track). */
static inline int probe_value(int x) { return x * 7; }
