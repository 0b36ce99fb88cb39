// What kbuild adds to a kernel's final link, compiled with -flto like the rest: a version stamp.
const char version_stamp[] = "smartcc linker front test";
