// The initramfs's /init for the kernel boot check (scripts/boards/boot-linux.py): prints one
// line naming the kernel it runs on, then powers the machine off (qemu exits).
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(void) {
  struct utsname u;
  if (uname(&u) == 0)
    printf("smartcc-board: init ran on %s %s\n", u.sysname, u.release);
  else
    printf("smartcc-board: init ran\n");
  fflush(stdout);
  sync();
  reboot(RB_POWER_OFF);
  return 1;
}
