# -*- Python -*-
# lit configuration for the dist regression and integration tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "DIST"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dist_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs", "consumer", "utils"]

# Never let a test hang the suite: lit's own per-test limit backs up the
# `timeout` every mpirun line carries.
lit_config.maxIndividualTestTime = int(os.environ.get("DIST_TEST_TIMEOUT", "300"))

llvm_config.use_default_substitutions()
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%dist_src_root", config.dist_src_root))
config.substitutions.append(("%dist_obj_root", config.dist_obj_root))
config.substitutions.append(("%dist_lib_dir", config.dist_lib_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%clang", config.dist_clang))

llvm_config.with_system_environment(["HOME", "TMPDIR", "CI"])
llvm_config.with_environment("PATH", config.dist_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# One BLAS thread per rank: ranks share the cores.
llvm_config.with_environment("OPENBLAS_NUM_THREADS", "1")

tools = ["dist-opt", "dist-translate", "FileCheck", "not", "count",
         "split-file"]
llvm_config.add_tool_substitutions(tools, [config.dist_tools_dir,
                                           config.llvm_tools_dir])

# Real matrices from Debian packages (scripts/setup.sh installs them):
# Harwell-Boeing files of scilab-doc, METIS graphs of libmetis-doc.
scilab_matrices = "/usr/share/scilab/modules/umfpack/demos"
if os.path.exists(os.path.join(scilab_matrices, "utm300.rua")):
    config.available_features.add("scilab-matrices")
    config.substitutions.append(("%scilab_matrices", scilab_matrices))
metis_graphs = "/usr/share/doc/libmetis-dev/examples/graphs"
if os.path.exists(os.path.join(metis_graphs, "4elt.graph")):
    config.available_features.add("metis-graphs")
    config.substitutions.append(("%metis_graphs", metis_graphs))

# MPI: every run has a hard timeout so a deadlock fails fast.
mpi_timeout = os.environ.get("DIST_MPI_TIMEOUT", "120")
if config.dist_have_mpi and config.dist_mpirun:
    config.available_features.add("mpi")
    flags = "--oversubscribe"
    if os.geteuid() == 0:
        flags += " --allow-run-as-root"
    config.substitutions.append(
        ("%mpirun", "timeout -k 5 %s %s %s %s" % (
            mpi_timeout, os.path.join(config.test_source_root, "utils", "mpirun-session"),
            config.dist_mpirun, flags)))
    config.substitutions.append(
        ("%dist-run", "dist-run --timeout %s" % mpi_timeout))
    config.substitutions.append(("%mpi_timeout", mpi_timeout))
    # C programs that start MPI themselves (emit-lib.test).
    if config.dist_mpicc:
        config.available_features.add("mpicc")
        config.substitutions.append(("%mpicc", config.dist_mpicc))
    # The pdgemm_ drop-in (examples/scalapack) is built with ScaLAPACK.
    if config.dist_have_scalapack:
        config.available_features.add("scalapack")
    # Open MPI as root needs these when a program is launched by a wrapper.
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # Open MPI 4.1 makes the top of its session directory tree
    # ($TMPDIR/ompi.HOST.UID) with a racy mkdir, and a finishing mpirun
    # removes it when it is empty, so concurrent runs that share it can fail
    # ("File exists", or "No such file or directory" for pid.N). %mpirun
    # (utils/mpirun-session) and dist-run give every run a directory of its
    # own under this base; the programs that start mpirun in other ways (the
    # property test, the shard scripts) use the base itself, made here with
    # that level already in place and removed when lit exits.
    import atexit
    import socket
    import tempfile
    ompi_tmp = tempfile.mkdtemp(prefix="dist-ompi-")
    os.makedirs(os.path.join(ompi_tmp, "ompi.%s.%d" % (
        socket.gethostname().split(".")[0], os.geteuid())), exist_ok=True)
    atexit.register(shutil.rmtree, ompi_tmp, True)
    config.environment["OMPI_MCA_orte_tmpdir_base"] = ompi_tmp
    # Quiet, local-only transports (no network probing on CI machines).
    config.environment["OMPI_MCA_btl"] = "self,vader,tcp"
    config.environment["OMPI_MCA_btl_tcp_if_include"] = "lo"
    config.environment["OMPI_MCA_oob_tcp_if_include"] = "lo"
    config.environment["PMIX_MCA_gds"] = "hash"
else:
    lit_config.note("mpirun not found: tests marked 'REQUIRES: mpi' are skipped")

# Set by scripts/sanitize.sh: the tools and the runtime are instrumented.
# Code built against them (test/consumer) needs the same sanitizer runtimes.
consumer_flags = ""
translate_args = ""
if os.environ.get("DIST_SANITIZE", "0") == "1":
    config.available_features.add("asan")
    # Generated code is instrumented too (dist-run passes this on).
    translate_args = "--dist-sanitize-address"
    config.environment["DIST_TRANSLATE_ARGS"] = translate_args
    # The runtime's reuse cache would hide a use after free of a buffer from
    # AddressSanitizer: every free goes back to the allocator.
    config.environment["DISTRT_ALLOC_CACHE_MB"] = "0"
    san = "-fsanitize=address,undefined -fno-sanitize-recover=all"
    consumer_flags = " ".join([
        "-DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang",
        "-DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++",
        "'-DCMAKE_C_FLAGS=%s'" % san, "'-DCMAKE_CXX_FLAGS=%s'" % san,
        "'-DCMAKE_EXE_LINKER_FLAGS=%s'" % san,
        # An instrumented DistPlugin.so cannot be loaded into the stock,
        # uninstrumented mlir-opt.
        "-DCONSUMER_WITH_PLUGIN=OFF"])
config.substitutions.append(("%consumer_cmake_flags", consumer_flags))
config.substitutions.append(("%dist_translate_args", translate_args))

# Network namespaces (Integration/netns-tcp.test): root, iproute2 and a
# kernel that lets this container create namespaces and veth pairs. The
# probe makes and removes two namespaces (scripts/netns-gemm.sh --probe).
if config.dist_have_mpi and os.geteuid() == 0 and shutil.which("ip") and \
        os.environ.get("DIST_NO_NETNS", "0") != "1":
    import subprocess
    probe = os.path.join(config.dist_src_root, "scripts", "netns-gemm.sh")
    try:
        r = subprocess.run(["bash", probe, "--probe"], capture_output=True,
                           text=True, timeout=60)
        if r.returncode == 0:
            config.available_features.add("netns")
        else:
            lit_config.note("network namespaces unavailable, netns tests "
                            "are skipped: " + (r.stdout + r.stderr).strip())
    except (OSError, subprocess.TimeoutExpired) as e:
        lit_config.note("network namespace probe failed: %s" % e)
else:
    lit_config.note("netns tests are skipped (need root, iproute2 and MPI)")

if shutil.which("cmake") or os.path.exists(config.cmake_command):
    config.available_features.add("cmake")

# Stock mlir-opt (MLIR's own, linked with libMLIR.so) and the plugin that
# brings dist's dialect, passes and pipelines into it (lib/Plugin).
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
if os.access(mlir_opt, os.X_OK):
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir_opt", mlir_opt))
    config.substitutions.append(
        ("%dist_plugin", os.path.join(config.dist_lib_dir, "DistPlugin.so")))
else:
    lit_config.note("mlir-opt not found in %s: the plugin tests are skipped"
                    % config.llvm_tools_dir)

# The NCCL backend (docs/gpu.md): `cuda-emu` when the plugin and its host
# emulation were built (CUDA, NCCL and cuBLAS found at configure time);
# `nvidia-gpu` when `nvidia-smi -L` lists a GPU, for the same tests on the
# real plugin. Without one those report UNSUPPORTED ("skipped: no GPU").
nccl_emu = os.path.join(config.dist_lib_dir, "libdistrt_nccl_emu.so")
if os.path.exists(nccl_emu):
    config.available_features.add("cuda-emu")
    config.substitutions.append(("%nccl_emu", nccl_emu))
    config.substitutions.append(
        ("%nccl_plugin", os.path.join(config.dist_lib_dir, "libdistrt_nccl.so")))
else:
    lit_config.note("the NCCL backend was not built: its tests are skipped")
# Generated GPU kernels compile with CUDA's ptxas and fatbinary
# (dist-gpu-to-binary; the toolkit the project was configured with).
cuda_bin = os.path.join(config.dist_cuda_toolkit, "bin")
if all(os.access(os.path.join(cuda_bin, t), os.X_OK)
       for t in ("ptxas", "fatbinary")):
    config.available_features.add("cuda-ptxas")
else:
    lit_config.note("no ptxas and fatbinary in %s: the tests that compile "
                    "generated GPU kernels are skipped" % cuda_bin)
gpu_listed = False
if shutil.which("nvidia-smi"):
    import subprocess
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                           text=True, timeout=30)
        gpus = [l for l in r.stdout.splitlines() if l.startswith("GPU")]
        gpu_listed = r.returncode == 0 and len(gpus) > 0
    except (OSError, subprocess.TimeoutExpired):
        gpu_listed = False
if gpu_listed and os.path.exists(nccl_emu):
    config.available_features.add("nvidia-gpu")
    # NCCL allows one rank of a communicator per GPU.
    for n in (2, 4):
        if len(gpus) >= n:
            config.available_features.add("nvidia-gpu-x%d" % n)
else:
    lit_config.note("skipped: no GPU (nvidia-smi -L lists none): the tests "
                    "on the real NCCL plugin are UNSUPPORTED")
