// rdimon-crt0.o calls _init() and registers _fini() with atexit(), which GCC's crti.o and
// crtn.o provide as the .init and .fini sections' frame. clang's bare-metal driver links no
// crti.o, and lld has nothing to put in .init: the two are empty here. newlib's
// __libc_init_array() (called by neither) is not needed by these programs: none has
// constructors.
void _init(void) {}
void _fini(void) {}
