/* A library that is not the program whose optimized module is replayed. */
int other_function(int x) { return x * 3 + 1; }
