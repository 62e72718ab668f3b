// RUN: dist-opt %s -split-input-file --dist-gpu-kernels -verify-diagnostics -o /dev/null

// What cannot become a GPU kernel is an error at the operation.

// A leaf over a device tile and a host buffer.
module attributes {dist.device_memory} {
  func.func @mixed(%a: memref<?xf64>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.alloc(%n) : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      // expected-error@+1 {{this leaf would be a GPU kernel over device tiles, but it also reads or writes host memory}}
      %v = memref.load %a[%i] : memref<?xf64>
      memref.store %v, %h[%i] : memref<?xf64>
    }
    memref.dealloc %h : memref<?xf64>
    return
  }
}

// -----

// A value read from device memory that the host then uses.
module attributes {dist.device_memory} {
  func.func private @use(f64)
  func.func @escapes(%a: memref<?xf64>) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{a GPU kernel runs this operation, but the host uses its result afterwards}}
    %v = memref.load %a[%c0] : memref<?xf64>
    func.call @use(%v) : (f64) -> ()
    return
  }
}

// -----

// A leaf whose body calls a host function.
module attributes {dist.device_memory} {
  func.func private @f(f64) -> f64
  func.func @call(%a: memref<?xf64>) {
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                    iterator_types = ["parallel"]} outs(%a : memref<?xf64>) {
    ^bb0(%o: f64):
      // expected-error@+1 {{a GPU kernel cannot run 'func.call' (this leaf is a GPU kernel on device tiles)}}
      %r = func.call @f(%o) : (f64) -> f64
      linalg.yield %r : f64
    }
    return
  }
}
