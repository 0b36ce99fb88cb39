# ctest helper: runs RUN (a '|'-separated command, led by the emulator), saves what the
# program printed to OUTPUT and fails unless it matches EXPECTED. Semihosting output
# reaches qemu-aarch64's standard error, so both streams are the program's output.
string(REPLACE "|" ";" RUN "${RUN}")
execute_process(COMMAND ${RUN} OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
file(WRITE "${OUTPUT}" "${out}")
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "program exited with ${rc}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}; see ${OUTPUT}")
endif()
