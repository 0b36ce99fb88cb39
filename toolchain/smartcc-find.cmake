# Resolves SMARTCC_BIN_DIR for the smartcc toolchain files; see the search order there.
# Toolchain files are re-read by every try_compile, so this must be cheap and idempotent.

if(NOT SMARTCC_BIN_DIR AND DEFINED ENV{SMARTCC_BIN_DIR})
  set(SMARTCC_BIN_DIR "$ENV{SMARTCC_BIN_DIR}")
endif()
if(NOT SMARTCC_BIN_DIR)
  # Installed layout first, then a source checkout built into ./build.
  foreach(_smartcc_dir "${CMAKE_CURRENT_LIST_DIR}/../../../bin" "${CMAKE_CURRENT_LIST_DIR}/../build/bin")
    if(EXISTS "${_smartcc_dir}/smartcc")
      get_filename_component(SMARTCC_BIN_DIR "${_smartcc_dir}" ABSOLUTE)
      break()
    endif()
  endforeach()
endif()
if(NOT SMARTCC_BIN_DIR)
  # Host PATH even when cross compiling: smartcc itself runs on the build machine.
  find_program(SMARTCC_ON_PATH smartcc NO_CMAKE_FIND_ROOT_PATH)
  if(SMARTCC_ON_PATH)
    get_filename_component(SMARTCC_BIN_DIR "${SMARTCC_ON_PATH}" DIRECTORY)
  endif()
endif()
if(NOT SMARTCC_BIN_DIR OR NOT EXISTS "${SMARTCC_BIN_DIR}/smartcc")
  message(FATAL_ERROR "smartcc not found (SMARTCC_BIN_DIR='${SMARTCC_BIN_DIR}'). "
    "Pass -DSMARTCC_BIN_DIR=<dir containing smartcc> or set it in the environment.")
endif()

# Cache it so the choice is stable across re-configures, and hand it to try_compile
# projects, which re-read the toolchain file but not our cache.
set(SMARTCC_BIN_DIR "${SMARTCC_BIN_DIR}" CACHE PATH "Directory holding smartcc and smartc++")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SMARTCC_BIN_DIR)
