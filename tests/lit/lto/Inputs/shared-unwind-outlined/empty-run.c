// Nothing frameless, nothing outlined: the shared run is left empty and must cost nothing.
int main(int argc, char **argv) { return argv[argc - 1][0] == 0; }
