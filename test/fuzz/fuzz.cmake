# Cache preset for the libFuzzer build (scripts/fuzz.sh):
#
#   cmake -S . -B build-fuzz -G Ninja -C test/fuzz/fuzz.cmake
#
# Every target is compiled with ASan + UBSan and the fuzzer's coverage
# instrumentation (-fsanitize=fuzzer-no-link), with assertions enabled in the
# dist code (LLVM itself is a release build: its own asserts stay off). The
# harness adds -fsanitize=fuzzer when it links.
set(CMAKE_C_COMPILER /usr/lib/llvm-22/bin/clang CACHE FILEPATH "")
set(CMAKE_CXX_COMPILER /usr/lib/llvm-22/bin/clang++ CACHE FILEPATH "")
set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "")
set(_san "-fsanitize=address,undefined -fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer")
set(CMAKE_C_FLAGS "${_san}" CACHE STRING "")
set(CMAKE_CXX_FLAGS "${_san}" CACHE STRING "")
# -O1 -g without -DNDEBUG: assert() is live in dist code.
set(CMAKE_C_FLAGS_RELWITHDEBINFO "-O1 -g" CACHE STRING "")
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O1 -g" CACHE STRING "")
set(CMAKE_EXE_LINKER_FLAGS "-fsanitize=address,undefined" CACHE STRING "")
set(CMAKE_SHARED_LINKER_FLAGS "-fsanitize=address,undefined" CACHE STRING "")
set(DIST_ENABLE_FUZZ ON CACHE BOOL "")
# Tells LLVM's CMake modules this is a sanitizer build: among other things
# they then leave out -Wl,-z,defs, so that libdistrt.so may leave the
# sanitizer runtimes to the executable that loads it.
set(LLVM_USE_SANITIZER "Address;Undefined" CACHE STRING "")
set(MLIR_DIR /usr/lib/llvm-22/lib/cmake/mlir CACHE PATH "")
set(LLVM_EXTERNAL_LIT /usr/lib/llvm-22/bin/lit CACHE FILEPATH "")
