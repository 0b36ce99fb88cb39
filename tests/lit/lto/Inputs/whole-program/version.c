// Two versions of one symbol (.symver): the library's interface as its version script says.
long wp_version_1(void) { return 1; }
long wp_version_2(void) { return 2; }
__asm__(".symver wp_version_1, wp_version@WP_1");
__asm__(".symver wp_version_2, wp_version@@WP_2");
