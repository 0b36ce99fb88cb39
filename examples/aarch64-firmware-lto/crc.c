#include "sensord.h"

// Bitwise CRC-16/CCITT-FALSE: no table, as firmware short on flash would do it.
uint16_t crc16_ccitt(const uint8_t *p, size_t n) {
  uint16_t crc = 0xFFFF;
  while (n--) {
    crc ^= (uint16_t)(*p++) << 8;
    for (int i = 0; i < 8; i++)
      crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
  }
  return crc;
}

// Never called: --gc-sections and LTO drop it from the image.
uint16_t crc16_unused_variant(const uint8_t *p, size_t n) {
  uint16_t crc = 0;
  while (n--)
    crc = (uint16_t)((crc >> 8) | (crc << 8)) ^ *p++;
  return crc;
}
