//===- TorchExtension.cpp - uta.custom_op's per-call path in C++ ----------===//
//
// libuta_torch.so, the optional torch extension of the uta package
// (docs/python.md). A uta.custom_op call from Python costs its argument
// checks, allocations and launches here, in C++, instead of in Python and
// ctypes, and its eager autograd node is a C++ node, not a Python
// torch.autograd.Function:
//
//   uta_ext::run(int runner, Tensor[] inputs) -> Tensor[]
//       one loaded executable on torch tensors: checks them against its
//       signature, takes the outputs and the intermediates' workspace from
//       torch's allocator and launches on torch's current stream;
//   uta_ext::step(int step, Tensor[] inputs) -> Tensor[]
//       an op's training pair as an autograd node: the forward runs and
//       saves its residuals, the backward runs the backward graph on them
//       (or, under create_graph, the op's differentiable backward operator).
//
// Runners and steps are made by the package (uta_ext::runner_new,
// step_new) and named by integer ids, so a stale or forged id is an error,
// never a dangling pointer. The library links the C API's runtime
// (libuta_c_runtime.so), which the package has loaded before it, so the
// executables the package hands over are of the same library.
//
// Built only where a torch installation is found, against that torch; the
// package loads it only under the same torch version and otherwise runs the
// same path in Python.
//
//===----------------------------------------------------------------------===//

#include "uta-c/Runtime.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/GradMode.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

/// Errors of the caller's making (shapes, dtypes, devices, ids) are
/// ValueErrors in Python, which the package raises as uta.InvalidInput; a
/// failure while running starts with "uta: " so the package can tell it
/// from torch's own RuntimeErrors.
[[noreturn]] void failRun(uta_status_t status) {
  const char *message = uta_last_error();
  if (status == UTA_INVALID_INPUT)
    TORCH_CHECK_VALUE(false, message);
  TORCH_CHECK(false, "uta: ", message);
}

at::ScalarType toScalarType(uta_dtype_t dtype) {
  switch (dtype) {
  case UTA_F32:
    return at::kFloat;
  case UTA_F16:
    return at::kHalf;
  case UTA_BF16:
    return at::kBFloat16;
  default:
    break;
  }
  TORCH_CHECK(false, "uta: an executable has dtype ", int(dtype),
              ", which this extension does not know");
}

/// "torch.float32 [4, 3]", as the Python path writes a tensor type.
std::string typeText(at::ScalarType dtype, at::IntArrayRef shape) {
  std::ostringstream text;
  text << "torch."
       << (dtype == at::kFloat      ? "float32"
           : dtype == at::kHalf     ? "float16"
           : dtype == at::kBFloat16 ? "bfloat16"
           : dtype == at::kDouble   ? "float64"
                                    : c10::toString(dtype))
       << " " << shape;
  return text.str();
}

/// Ids are unique across registries, so uta_ext::release needs no kind.
int64_t newId() {
  static std::atomic<int64_t> next{1};
  return next++;
}

/// Objects named by positive ids. A lookup takes a reference, so an object
/// released meanwhile lives until the call that found it returns.
template <typename T> class Registry {
public:
  explicit Registry(const char *kind) : kind_(kind) {}

  int64_t add(std::shared_ptr<const T> object) {
    int64_t id = newId();
    std::lock_guard<std::mutex> lock(mutex_);
    objects_.emplace(id, std::move(object));
    return id;
  }
  void replace(int64_t id, std::shared_ptr<const T> object) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = objects_.find(id);
    TORCH_CHECK_VALUE(found != objects_.end(), "uta_ext: no ", kind_, " ", id);
    found->second = std::move(object);
  }
  std::shared_ptr<const T> get(int64_t id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = objects_.find(id);
    TORCH_CHECK_VALUE(found != objects_.end(), "uta_ext: no ", kind_, " ", id,
                      " (released, or never made)");
    return found->second;
  }
  bool release(int64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    return objects_.erase(id) != 0;
  }

private:
  const char *kind_;
  mutable std::mutex mutex_;
  std::unordered_map<int64_t, std::shared_ptr<const T>> objects_;
};

/// One loaded executable on torch tensors of one device: a CUDA device
/// (launches on torch's current stream, no host wait) or the CPU (the
/// executable's host backend, which returns once the outputs are written).
class Runner {
public:
  Runner(const uta_executable_t *executable, std::string where,
         c10::Device device)
      : where_(std::move(where)), device_(device) {
    uta_executable_t *copy = nullptr;
    uta_status_t status = uta_executable_copy(executable, &copy);
    if (status != UTA_OK)
      failRun(status);
    executable_.reset(copy);
    readSignature(/*output=*/0, inputs_);
    readSignature(/*output=*/1, outputs_);
    workspaceBytes_ = uta_executable_workspace_bytes(copy);
    workspaceAlignment_ =
        std::max<uint64_t>(uta_executable_workspace_alignment(copy), 1);
  }

  std::vector<at::Tensor> run(at::TensorList inputs) const {
    TORCH_CHECK_VALUE(inputs.size() == inputs_.size(), where_, " takes ",
                      inputs_.size(), " tensors, got ", inputs.size());
    bool onCuda = device_.is_cuda();
    std::vector<uint64_t> inputAddresses;
    inputAddresses.reserve(inputs.size());
    // Copies of misaligned inputs, alive until the launches are queued (and
    // after, by the allocator's stream order).
    std::vector<at::Tensor> aligned;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const at::Tensor &input = inputs[i];
      const Signature &expected = inputs_[i];
      TORCH_CHECK_VALUE(input.defined(), where_, ": input ", i,
                        " is an undefined tensor");
      TORCH_CHECK_VALUE(input.device() == device_, where_, ": input ", i,
                        " is on ", input.device(), ", expected ", device_,
                        "; move them to one device");
      TORCH_CHECK_VALUE(input.scalar_type() == expected.dtype &&
                            input.sizes() == at::IntArrayRef(expected.shape),
                        where_, ": input ", i, " is ",
                        typeText(input.scalar_type(), input.sizes()),
                        ", expected ",
                        typeText(expected.dtype, expected.shape));
      TORCH_CHECK_VALUE(input.is_contiguous(), where_, ": input ", i,
                        " is not contiguous (strides ", input.strides(),
                        "); call .contiguous() first");
      auto address = reinterpret_cast<uintptr_t>(input.const_data_ptr());
      if (onCuda && address % 16) {
        // A view into another tensor (a chunk, a gradient of a cat): the
        // kernels' vector loads need 16 bytes, a fresh block has 512.
        aligned.push_back(input.clone());
        address = reinterpret_cast<uintptr_t>(aligned.back().const_data_ptr());
      }
      inputAddresses.push_back(address);
    }

    std::vector<at::Tensor> outputs;
    std::vector<uint64_t> outputAddresses;
    outputs.reserve(outputs_.size());
    for (const Signature &output : outputs_) {
      outputs.push_back(
          at::empty(output.shape,
                    at::TensorOptions().dtype(output.dtype).device(device_)));
      outputAddresses.push_back(
          reinterpret_cast<uintptr_t>(outputs.back().data_ptr()));
    }

    uta_status_t status;
    if (!onCuda) {
      status = uta_executable_run_addresses(
          executable_.get(), inputAddresses.data(), inputAddresses.size(),
          outputAddresses.data(), outputAddresses.size(), nullptr);
    } else {
      c10::DeviceGuard guard(device_);
      // From torch's allocator on the stream the launches go on, so its
      // block is handed out again only to work queued after them.
      at::Tensor workspace;
      uint64_t workspaceStart = 0;
      if (workspaceBytes_) {
        workspace = at::empty(
            {static_cast<int64_t>(workspaceBytes_ + workspaceAlignment_)},
            at::TensorOptions().dtype(at::kByte).device(device_));
        workspaceStart = reinterpret_cast<uintptr_t>(workspace.data_ptr());
        workspaceStart +=
            (workspaceAlignment_ - workspaceStart % workspaceAlignment_) %
            workspaceAlignment_;
      }
      void *stream = c10::impl::getDeviceGuardImpl(device_.type())
                         ->getStream(device_)
                         .native_handle();
      status = uta_executable_run_on_cuda_stream(
          executable_.get(), inputAddresses.data(), inputAddresses.size(),
          outputAddresses.data(), outputAddresses.size(),
          reinterpret_cast<uintptr_t>(stream), workspaceStart, workspaceBytes_);
    }
    if (status != UTA_OK)
      failRun(status);
    return outputs;
  }

  const std::string &where() const { return where_; }

private:
  struct Signature {
    at::ScalarType dtype;
    std::vector<int64_t> shape;
  };

  void readSignature(int output, std::vector<Signature> &signatures) {
    size_t count = output ? uta_executable_num_outputs(executable_.get())
                          : uta_executable_num_inputs(executable_.get());
    for (size_t i = 0; i < count; ++i) {
      uta_dtype_t dtype;
      size_t rank = 0;
      const int64_t *shape = nullptr;
      uta_status_t status = uta_executable_tensor_type(
          executable_.get(), output, i, &dtype, &rank, &shape);
      if (status != UTA_OK)
        failRun(status);
      signatures.push_back(
          {toScalarType(dtype), std::vector<int64_t>(shape, shape + rank)});
    }
  }

  /// A handle of the runner's own (uta_executable_copy): the package may
  /// destroy its handle first.
  std::unique_ptr<uta_executable_t, void (*)(uta_executable_t *)> executable_{
      nullptr, &uta_executable_destroy};
  std::string where_;
  c10::Device device_;
  std::vector<Signature> inputs_, outputs_;
  uint64_t workspaceBytes_ = 0, workspaceAlignment_ = 1;
};

/// An op's training pair for one input signature and device: its forward
/// runner returns the op's outputs, then the residuals; its backward runner
/// takes the `saved` values of (inputs, outputs, residuals), then one
/// cotangent per output, and returns the gradients of the `wrt` inputs.
struct Step {
  std::shared_ptr<const Runner> forward, backward;
  int64_t numOutputs = 0;
  std::vector<int64_t> saved, wrt;
  /// The op's backward as a torch operator with its own autograd (for
  /// create_graph), taking (inputs, outputs, residuals, cotangents) and the
  /// number of inputs.
  std::string backwardOperator;
};

Registry<Runner> &runners() {
  static Registry<Runner> registry("runner");
  return registry;
}

Registry<Step> &steps() {
  static Registry<Step> registry("step");
  return registry;
}

std::vector<at::Tensor> runOp(int64_t runner, at::TensorList inputs) {
  return runners().get(runner)->run(inputs);
}

/// The backward through the op's torch operator, which records its own
/// node, so the gradients can be differentiated again.
std::vector<at::Tensor> differentiableBackward(const Step &step,
                                               std::vector<at::Tensor> values,
                                               int64_t numInputs) {
  c10::OperatorHandle op = c10::Dispatcher::singleton().findSchemaOrThrow(
      step.backwardOperator.c_str(), "");
  std::vector<c10::IValue> stack{c10::IValue(std::move(values)),
                                 c10::IValue(numInputs)};
  op.callBoxed(&stack);
  return stack.at(0).toTensorVector();
}

class StepFunction : public torch::autograd::Function<StepFunction> {
public:
  static variable_list forward(AutogradContext *context, int64_t stepId,
                               at::TensorList inputs) {
    std::shared_ptr<const Step> step = steps().get(stepId);
    std::vector<at::Tensor> results = step->forward->run(inputs);
    TORCH_CHECK(static_cast<int64_t>(results.size()) >= step->numOutputs,
                "uta: ", step->forward->where(), " returned ", results.size(),
                " tensors, fewer than its ", step->numOutputs, " outputs");
    // Everything the op's torch operator saves, in its order: the inputs,
    // the outputs, the residuals (intermediates, not returned).
    variable_list saved(inputs.begin(), inputs.end());
    saved.insert(saved.end(), results.begin(), results.end());
    context->save_for_backward(saved);
    context->saved_data["step"] = stepId;
    context->saved_data["inputs"] = static_cast<int64_t>(inputs.size());
    return variable_list(results.begin(), results.begin() + step->numOutputs);
  }

  static variable_list backward(AutogradContext *context,
                                variable_list cotangents) {
    std::shared_ptr<const Step> step =
        steps().get(context->saved_data["step"].toInt());
    int64_t numInputs = context->saved_data["inputs"].toInt();
    variable_list saved = context->get_saved_variables();
    // UTA takes a dense cotangent for every output: zeros for one that
    // reaches no loss, a copy of a broadcast view (sum().backward()).
    for (size_t i = 0; i < cotangents.size(); ++i) {
      at::Tensor &cotangent = cotangents[i];
      cotangent = cotangent.defined() ? cotangent.contiguous()
                                      : at::zeros_like(saved[numInputs + i]);
    }
    std::vector<at::Tensor> grads;
    if (c10::GradMode::is_enabled()) {
      std::vector<at::Tensor> values(saved.begin(), saved.end());
      values.insert(values.end(), cotangents.begin(), cotangents.end());
      grads = differentiableBackward(*step, std::move(values), numInputs);
    } else {
      TORCH_CHECK(step->backward, "uta: ", step->forward->where(),
                  " has no backward loaded");
      std::vector<at::Tensor> arguments;
      arguments.reserve(step->saved.size() + cotangents.size());
      for (int64_t index : step->saved)
        arguments.push_back(saved.at(index));
      arguments.insert(arguments.end(), cotangents.begin(), cotangents.end());
      grads = step->backward->run(arguments);
    }
    // One gradient per argument of forward: none for the step id.
    variable_list result(1 + numInputs);
    for (size_t i = 0; i < step->wrt.size() && i < grads.size(); ++i)
      result.at(1 + step->wrt[i]) = grads[i];
    return result;
  }
};

std::vector<at::Tensor> stepOp(int64_t step, at::TensorList inputs) {
  return StepFunction::apply(step, inputs);
}

int64_t runnerNew(int64_t executable, c10::string_view where,
                  c10::Device device) {
  TORCH_CHECK_VALUE(executable != 0, "uta_ext::runner_new: no executable");
  return runners().add(std::make_shared<const Runner>(
      reinterpret_cast<const uta_executable_t *>(executable),
      std::string(where), device));
}

int64_t stepNew(int64_t forward, int64_t numOutputs, at::IntArrayRef saved,
                at::IntArrayRef wrt, c10::string_view backwardOperator) {
  TORCH_CHECK_VALUE(numOutputs >= 0, "uta_ext::step_new: num_outputs ",
                    numOutputs, " is negative");
  auto step = std::make_shared<Step>();
  step->forward = runners().get(forward);
  step->numOutputs = numOutputs;
  step->saved.assign(saved.begin(), saved.end());
  step->wrt.assign(wrt.begin(), wrt.end());
  step->backwardOperator = std::string(backwardOperator);
  return steps().add(std::move(step));
}

void stepSetBackward(int64_t stepId, int64_t backward) {
  auto step = std::make_shared<Step>(*steps().get(stepId));
  step->backward = runners().get(backward);
  steps().replace(stepId, std::move(step));
}

bool release(int64_t id) {
  return runners().release(id) || steps().release(id);
}

} // namespace

TORCH_LIBRARY(uta_ext, m) {
  m.def("run(int runner, Tensor[] inputs) -> Tensor[]");
  m.def("step(int step, Tensor[] inputs) -> Tensor[]");
  m.def("runner_new(int executable, str where, Device device) -> int",
        &runnerNew);
  m.def("step_new(int forward, int num_outputs, int[] saved, int[] wrt, "
        "str backward_operator) -> int",
        &stepNew);
  m.def("step_set_backward(int step, int backward) -> ()", &stepSetBackward);
  m.def("release(int id) -> bool", &release);
}

TORCH_LIBRARY_IMPL(uta_ext, CompositeExplicitAutograd, m) {
  m.impl("run", &runOp);
}

TORCH_LIBRARY_IMPL(uta_ext, CompositeImplicitAutograd, m) {
  m.impl("step", &stepOp);
}
