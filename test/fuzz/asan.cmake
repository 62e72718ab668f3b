# Cache preset for the sanitizer build (scripts/sanitize.sh):
#
#   cmake -S . -B build-asan -G Ninja -C test/fuzz/asan.cmake \
#         -DDIST_CLANG=build-asan/asan-clang
#
# Every target (dist-opt, dist-translate, libdistrt.so, the runtime unit
# tests) is compiled with AddressSanitizer (LeakSanitizer included) and
# UndefinedBehaviorSanitizer, a UB report aborts the program, and assert() is
# live in the dist code. libdistrt.so leaves the ASan runtime to the
# executable, so programs that link it must be linked with
# -fsanitize=address: dist-run compiles them with DIST_CLANG, which
# scripts/sanitize.sh points at a clang wrapper that adds the flags.
set(CMAKE_C_COMPILER /usr/lib/llvm-22/bin/clang CACHE FILEPATH "")
set(CMAKE_CXX_COMPILER /usr/lib/llvm-22/bin/clang++ CACHE FILEPATH "")
set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "")
set(_san "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer")
set(CMAKE_C_FLAGS "${_san}" CACHE STRING "")
set(CMAKE_CXX_FLAGS "${_san}" CACHE STRING "")
set(CMAKE_C_FLAGS_RELWITHDEBINFO "-O1 -g" CACHE STRING "")
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O1 -g" CACHE STRING "")
set(CMAKE_EXE_LINKER_FLAGS "-fsanitize=address,undefined" CACHE STRING "")
set(CMAKE_SHARED_LINKER_FLAGS "-fsanitize=address,undefined" CACHE STRING "")
# Tells LLVM's CMake modules this is a sanitizer build: among other things
# they then leave out -Wl,-z,defs, so that libdistrt.so may leave the
# sanitizer runtimes to the executable that loads it.
set(LLVM_USE_SANITIZER "Address;Undefined" CACHE STRING "")
set(MLIR_DIR /usr/lib/llvm-22/lib/cmake/mlir CACHE PATH "")
set(LLVM_EXTERNAL_LIT /usr/lib/llvm-22/bin/lit CACHE FILEPATH "")
