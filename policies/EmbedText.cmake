# Turns a text file into a C++ raw string constant (the file must not contain ")SMARTCC").
file(READ ${INPUT} CONTENT)
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\nstatic const char ${SYMBOL}[] = R\"SMARTCC(${CONTENT})SMARTCC\";\n")
