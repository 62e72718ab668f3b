// Found by dist-fuzz (ASan heap-use-after-free in convert-dist-to-runtime):
// lowerGrid() loops over {StringRef(base), StringRef(base + "_dims")}; the
// std::string temporary behind the second StringRef dies before the loop
// body looks the name up (lib/Conversion/DistToRuntime/DistToRuntime.cpp).
// Any module-level grid reaches it under --dist-to-llvm.
dist.grid @m [2]
