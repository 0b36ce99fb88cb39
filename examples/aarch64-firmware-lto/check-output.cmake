# ctest helper: runs RUN (a '|'-separated command, so an emulator can lead it), saves
# stdout to OUTPUT, shows it, and fails unless it matches the committed EXPECTED file.
string(REPLACE "|" ";" RUN "${RUN}")
execute_process(COMMAND ${RUN} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
file(WRITE "${OUTPUT}" "${out}")
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "program exited with ${rc}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}; see ${OUTPUT}")
endif()
