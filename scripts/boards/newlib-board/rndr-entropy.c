// Mbed TLS's entropy source on this board (MBEDTLS_ENTROPY_HARDWARE_ALT): the CPU's random
// number instruction, RNDR (FEAT_RNG, which qemu's "max" CPU has). A board without an
// entropy source fails Mbed TLS's entropy self-test, as it should.
#include <stddef.h>
#include <string.h>

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen) {
  (void)data;
  size_t done = 0;
  while (done < len) {
    unsigned long value;
    int ok;
    // RNDR clears NZCV when it returns a random number and sets Z when it could not.
    __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %w1, ne" : "=r"(value), "=r"(ok) : : "cc");
    if (!ok)
      break;
    size_t n = len - done < sizeof value ? len - done : sizeof value;
    memcpy(output + done, &value, n);
    done += n;
  }
  *olen = done;
  return 0;
}
