//===- RuntimeLowering.cpp - shared state of convert-dist-to-runtime ------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

RuntimeLowering::RuntimeLowering(ModuleOp module) : module(module) {
  MLIRContext *ctx = module.getContext();
  ptrTy = LLVM::LLVMPointerType::get(ctx);
  i64Ty = IntegerType::get(ctx, 64);
  f64Ty = Float64Type::get(ctx);
}

std::string RuntimeLowering::freshName(StringRef prefix) {
  std::string name;
  do {
    name = (prefix + Twine(globalCounter++)).str();
  } while (module.lookupSymbol(name));
  return name;
}

LogicalResult RuntimeLowering::fail(ConversionPatternRewriter &rewriter,
                                    Operation *op,
                                    const TypeConverter *converter) {
  errored = true;
  SmallVector<Value> poison;
  for (Type t : op->getResultTypes()) {
    Type lowered = converter ? converter->convertType(t) : t;
    if (!lowered || !LLVM::isCompatibleType(lowered))
      lowered = isa<IndexType>(t) ? t : i64Ty;
    poison.push_back(LLVM::PoisonOp::create(rewriter, op->getLoc(), lowered));
  }
  rewriter.replaceOp(op, poison);
  return success();
}

//===----------------------------------------------------------------------===//
// Grids
//===----------------------------------------------------------------------===//

LogicalResult RuntimeLowering::lowerGrid(GridOp grid) {
  SmallVector<int64_t> dims;
  for (unsigned l = 0; l < grid.getNumLevels(); ++l)
    llvm::append_range(dims, grid.getLevel(l).getShape());
  if (grid.getNumLevels() > 1)
    return grid.emitError("grid '")
           << grid.getSymName()
           << "' is hierarchical; convert-dist-to-runtime lowers one-level "
              "grids: run dist-flatten-machines first (dist-to-llvm does)";
  int64_t nodeAxes = 0;
  if (Attribute a = grid->getAttr(kNodeAxesAttrName)) {
    auto n = dyn_cast<IntegerAttr>(a);
    if (!n || n.getInt() < 1 || n.getInt() >= (int64_t)dims.size())
      return grid.emitError("grid '")
             << grid.getSymName() << "': '" << kNodeAxesAttrName
             << "' must be an integer from 1 to " << dims.size() - 1
             << " (the leading axes that index nodes; at least one axis "
                "must index the processors of a node)";
    nodeAxes = n.getInt();
  }
  if (grid->getParentOp() != module.getOperation())
    return grid.emitError("dist.grid must be declared at module level to "
                          "be lowered to the runtime");
  bool gpus = grid.getLevel(0).getKind() == ProcessorKind::gpu;
  if (gpus && !module->hasAttr(kDeviceMemoryAttrName))
    return grid.emitError("grid '")
           << grid.getSymName()
           << "' is made of GPUs, but the program's tiles are in host "
              "memory: compile with dist-to-llvm device=auto (the default) "
              "or device=gpu, which run dist-device-memory (dist-run: the "
              "default backend, or --backend nccl)";
  OpBuilder b(grid);
  Location loc = grid.getLoc();
  std::string base = ("__dist_grid_" + grid.getSymName()).str();
  std::string dimsName = base + "_dims";
  for (const std::string &name : {base, dimsName})
    if (SymbolTable::lookupSymbolIn(module, name))
      return grid.emitError("symbol '")
             << name << "' is reserved for the runtime handle of grid '"
             << grid.getSymName() << "'";
  auto slot = LLVM::GlobalOp::create(b, loc, ptrTy, /*isConstant=*/false,
                                     LLVM::Linkage::Internal, base,
                                     Attribute());
  {
    Block *init = b.createBlock(&slot.getInitializerRegion());
    OpBuilder ib = OpBuilder::atBlockEnd(init);
    Value null = LLVM::ZeroOp::create(ib, loc, ptrTy);
    LLVM::ReturnOp::create(ib, loc, null);
  }
  b.setInsertionPoint(grid);
  auto arrTy = LLVM::LLVMArrayType::get(i64Ty, dims.size());
  auto dimsAttr = DenseElementsAttr::get(
      RankedTensorType::get({(int64_t)dims.size()}, i64Ty),
      ArrayRef<int64_t>(dims));
  auto dimsGlobal =
      LLVM::GlobalOp::create(b, loc, arrTy, /*isConstant=*/true,
                             LLVM::Linkage::Internal, dimsName, dimsAttr);
  grids[grid.getSymNameAttr()] = {slot, dimsGlobal, dims, nodeAxes, gpus};
  return success();
}

Value RuntimeLowering::gridHandle(OpBuilder &b, Location loc, Operation *user,
                                  FlatSymbolRefAttr grid) {
  auto it = grids.find(grid.getAttr());
  if (it == grids.end()) {
    user->emitError("'@") << grid.getValue()
                          << "' does not name a module-level dist.grid";
    return {};
  }
  Value slot = LLVM::AddressOfOp::create(b, loc, it->second.slot);
  Value dims = LLVM::AddressOfOp::create(b, loc, it->second.dims);
  Value n = i64(b, loc, it->second.shape.size());
  FailureOr<Value> h =
      it->second.gpus
          ? call(b, loc, "distrt_grid_lookup_gpus",
                 {slot, n, dims, i64(b, loc, it->second.nodeAxes)})
      : it->second.nodeAxes > 0
          ? call(b, loc, "distrt_grid_lookup_nodes",
                 {slot, n, dims, i64(b, loc, it->second.nodeAxes)})
          : call(b, loc, "distrt_grid_lookup", {slot, n, dims});
  return succeeded(h) ? *h : Value();
}

ArrayRef<int64_t> RuntimeLowering::gridShape(FlatSymbolRefAttr grid) {
  auto it = grids.find(grid.getAttr());
  if (it == grids.end())
    return {};
  return it->second.shape;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

FailureOr<Value> RuntimeLowering::call(OpBuilder &b, Location loc,
                                       StringRef name, ValueRange args) {
  FailureOr<const abi::RuntimeFunction *> entry =
      abi::lookupRuntimeFunction(loc, name, args.getTypes());
  if (failed(entry))
    return failure();
  LLVM::LLVMFunctionType fnTy =
      abi::getLLVMFunctionType(module.getContext(), **entry);
  LLVM::LLVMFuncOp fn;
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, name)) {
    fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!fn || fn.getFunctionType() != fnTy) {
      existing->emitError("symbol '")
          << name
          << "' is reserved for the distrt runtime and has the wrong type";
      return failure();
    }
  } else {
    OpBuilder fb = OpBuilder::atBlockEnd(module.getBody());
    fn = LLVM::LLVMFuncOp::create(fb, module.getLoc(), name, fnTy);
  }
  auto callOp = LLVM::CallOp::create(b, loc, fn, args);
  if (callOp.getNumResults() == 0)
    return Value();
  return callOp.getResult();
}

//===----------------------------------------------------------------------===//
// Argument forms
//===----------------------------------------------------------------------===//

Value RuntimeLowering::i64(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, i64Ty, b.getI64IntegerAttr(v));
}

Value RuntimeLowering::f64(OpBuilder &b, Location loc, double v) {
  return LLVM::ConstantOp::create(b, loc, f64Ty, b.getF64FloatAttr(v));
}

Value RuntimeLowering::toI64(OpBuilder &b, Location loc, Value v) {
  if (v.getType() == i64Ty)
    return v;
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64Ty, v);
  return arith::ExtSIOp::create(b, loc, i64Ty, v);
}

Value RuntimeLowering::axesMask(OpBuilder &b, Location loc,
                                ArrayRef<int64_t> axes) {
  int64_t m = 0;
  for (int64_t a : axes)
    m |= int64_t(1) << a;
  return i64(b, loc, m);
}

Value RuntimeLowering::ptrOf(OpBuilder &b, Location loc, Value mem) {
  Value a = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
  Value p = LLVM::IntToPtrOp::create(b, loc, ptrTy, toI64(b, loc, a));
  auto type = cast<MemRefType>(mem.getType());
  if (type.getLayout().isIdentity())
    return p;
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, mem);
  return LLVM::GEPOp::create(b, loc, ptrTy, type.getElementType(), p,
                             ValueRange{toI64(b, loc, md.getOffset())});
}

LogicalResult RuntimeLowering::buffer(OpBuilder &b, Location loc,
                                      Operation *op, Value mem, Value &ptr,
                                      Value &count, int64_t &dtype) {
  auto type = cast<MemRefType>(mem.getType());
  dtype = abi::dtypeCode(type.getElementType());
  if (dtype < 0)
    return op->emitOpError("communicates ")
           << type.getElementType()
           << " elements; the runtime handles f32, f64, i32 and i64";
  if (!type.getLayout().isIdentity())
    return op->emitOpError("needs a contiguous buffer with the identity "
                           "layout, got ")
           << type;
  ptr = ptrOf(b, loc, mem);
  int64_t staticCount = 1;
  Value dynCount;
  for (auto [d, e] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(e)) {
      staticCount *= e;
      continue;
    }
    Value dim = toI64(b, loc, memref::DimOp::create(b, loc, mem, d));
    dynCount = dynCount ? LLVM::MulOp::create(b, loc, dynCount, dim).getResult()
                        : dim;
  }
  count = i64(b, loc, staticCount);
  if (dynCount)
    count = LLVM::MulOp::create(b, loc, count, dynCount);
  return success();
}

Value RuntimeLowering::descriptor(OpBuilder &b, Location loc,
                                  DistTensorType type) {
  return constArray(b, loc, abi::layoutDescriptor(type));
}

Value RuntimeLowering::constArray(OpBuilder &b, Location loc,
                                  ArrayRef<int64_t> values) {
  std::string key;
  for (int64_t v : values)
    key += std::to_string(v) + ",";
  LLVM::GlobalOp global = arrayGlobals.lookup(key);
  if (!global) {
    OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
    auto arrTy = LLVM::LLVMArrayType::get(i64Ty, values.size());
    auto attr = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)values.size()}, i64Ty), values);
    global = LLVM::GlobalOp::create(gb, loc, arrTy, /*isConstant=*/true,
                                    LLVM::Linkage::Internal,
                                    freshName("__dist_desc_"), attr);
    arrayGlobals[key] = global;
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value RuntimeLowering::constString(OpBuilder &b, Location loc, StringRef text) {
  if (LLVM::GlobalOp existing = stringGlobals.lookup(text))
    return LLVM::AddressOfOp::create(b, loc, existing);
  OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
  std::string data = text.str();
  data.push_back('\0');
  auto arrTy = LLVM::LLVMArrayType::get(IntegerType::get(b.getContext(), 8),
                                        data.size());
  auto global = LLVM::GlobalOp::create(gb, loc, arrTy, /*isConstant=*/true,
                                       LLVM::Linkage::Internal,
                                       freshName("__dist_str_"),
                                       gb.getStringAttr(data));
  stringGlobals[text] = global;
  return LLVM::AddressOfOp::create(b, loc, global);
}

Value RuntimeLowering::saveStack(OpBuilder &b, Location loc) {
  return LLVM::StackSaveOp::create(b, loc, ptrTy);
}

void RuntimeLowering::restoreStack(OpBuilder &b, Location loc, Value saved) {
  LLVM::StackRestoreOp::create(b, loc, saved);
}

Value RuntimeLowering::stackArray(OpBuilder &b, Location loc,
                                  ValueRange values) {
  Value n = i64(b, loc, std::max<int64_t>(1, values.size()));
  Value arr = LLVM::AllocaOp::create(b, loc, ptrTy, i64Ty, n);
  for (auto [i, v] : llvm::enumerate(values)) {
    Value at = LLVM::GEPOp::create(b, loc, ptrTy, i64Ty, arr,
                                   ArrayRef<LLVM::GEPArg>{(int32_t)i});
    LLVM::StoreOp::create(b, loc, toI64(b, loc, v), at);
  }
  return arr;
}
