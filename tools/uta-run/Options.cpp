//===- Options.cpp - The command line of uta-run --------------------------===//

#include "tools/uta-run/Options.h"

#include <charconv>
#include <cstring>
#include <string_view>

using namespace uta::runtime;

const char *uta::runtime::getUTARunHelp() {
  return R"(usage: uta-run OUT.json [options]

Runs a module compiled by utac (OUT and its manifest OUT.json) on a GPU,
without the compiler.

options:
  --backend=cuda|vulkan  the runtime to use; by default the one that runs the
                         manifest's target (ptx: cuda, spirv: vulkan)
  --device=N             the GPU to run on (default 0)
  --inputs=A.npy,B.npy   take the arguments from NumPy .npy files, in argument
                         order; shapes and dtypes must match the manifest
                         (float32 files are accepted for f16 and bf16
                         arguments and rounded to nearest even)
  --seed=N               without --inputs, fill the arguments with
                         standard-normal numbers of seed N (default 0), the
                         same as `utac run --seed=N` (docs/random-inputs.md)
  --save=DIR             write the results to DIR/result0.npy, ... (f16 and
                         bf16 results as float32), only when the run and
                         every --expect check succeeded
  --expect=DIR           compare result i with DIR/resultI.npy (as written by
                         `utac run --backend=reference --save=DIR`) and print
                         one line per result
  --tolerance=T          the error bound of --expect (default: 1e-4 for f32
                         results, 1e-2 for f16 and bf16)
  --profile              print the GPU time of each kernel launch and, where
                         the manifest has the launch's cost, the rates it
                         reached: operations per second by unit (simt, and
                         the tensor cores' tf32, 3xtf32, bf16 or f16) and
                         bytes per second (the bytes it must read and write
                         over its time); on CUDA also the memory of the
                         intermediates and of the workspace the timed runs
                         hold them in (those not live at the same launch
                         share bytes)
  --profile-json=FILE    with --profile, also write the report to FILE as
                         JSON: per launch its kernel, median ms, runs, cost
                         and rates, and the total
  --trace=FILE           with --profile, also write the launches of a median
                         run end to end as a trace (Trace Event Format) that
                         Perfetto (ui.perfetto.dev) and chrome://tracing open
  --peaks=FILE           with --profile, place each launch on the device's
                         roofline: the peaks FILE holds (measured on this
                         kind of device by bench/roofline/calibrate.py) give
                         the least time its cost allows, the fraction of its
                         time that is, and what bounds it (memory, or a unit)
  --repeat=N             run the graph N times on the same arguments (the
                         first run's results are checked and saved; the
                         later runs keep the arguments on the device and
                         read nothing back); with --profile, print each
                         launch's median time
  --print-device         print the device that --backend and --device select,
                         and exit (no manifest needed)
  --help                 print this text

exit codes: 0 success; 1 bad input or a failed run; 2 an --expect check
failed; 3 the backend is not available here (no GPU, driver or device).
)";
}

namespace {

Status bad(const std::string &message) {
  return Status::error(ErrorCode::InvalidInput, message);
}

template <typename T>
Status parseNumber(std::string_view option, std::string_view text, T &out) {
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (text.empty() || ec != std::errc() || ptr != end)
    return bad(std::string(option) + ": expected a number, got '" +
               std::string(text) + "'");
  return Status();
}

std::vector<std::string> splitCommas(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos)
      return parts;
    start = comma + 1;
  }
}

/// The field of an option that names a file or folder, or null.
std::string *pathOption(UTARunOptions &options, std::string_view name) {
  const std::pair<std::string_view, std::string *> paths[] = {
      {"--save", &options.saveDir},
      {"--expect", &options.expectDir},
      {"--profile-json", &options.profileJson},
      {"--trace", &options.trace},
      {"--peaks", &options.peaks}};
  for (const auto &[option, field] : paths)
    if (option == name)
      return field;
  return nullptr;
}

} // namespace

Expected<UTARunOptions> uta::runtime::parseUTARunOptions(int argc,
                                                         char **argv) {
  UTARunOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.size() < 2 || arg.substr(0, 2) != "--" || arg == "--") {
      if (arg == "-h") {
        options.help = true;
        continue;
      }
      if (!arg.empty() && arg[0] == '-')
        return bad("unknown option '" + std::string(arg) + "' (see --help)");
      if (!options.manifest.empty())
        return bad("expected one manifest, got '" + options.manifest +
                   "' and '" + std::string(arg) + "'");
      options.manifest = std::string(arg);
      continue;
    }
    size_t equals = arg.find('=');
    std::string_view name = arg.substr(0, equals);
    bool hasValue = equals != std::string_view::npos;
    std::string_view value =
        hasValue ? arg.substr(equals + 1) : std::string_view();

    // Flags take no value; the others need one.
    auto flag = [&](bool &out) -> Status {
      if (hasValue)
        return bad(std::string(name) + " takes no value");
      out = true;
      return Status();
    };
    auto needValue = [&]() -> Status {
      if (!hasValue || value.empty())
        return bad(std::string(name) + ": expected " + std::string(name) +
                   "=VALUE");
      return Status();
    };

    Status status;
    if (name == "--help") {
      status = flag(options.help);
    } else if (name == "--profile") {
      status = flag(options.profile);
    } else if (name == "--print-device") {
      status = flag(options.printDevice);
    } else if (name == "--backend") {
      if ((status = needValue()))
        options.backend = std::string(value);
    } else if (name == "--inputs") {
      if ((status = needValue())) {
        options.inputs = splitCommas(value);
        for (const std::string &input : options.inputs)
          if (input.empty())
            status = bad("--inputs: empty file name in '" + std::string(value) +
                         "'");
      }
    } else if (name == "--seed") {
      uint64_t seed = 0;
      if ((status = needValue()) && (status = parseNumber(name, value, seed)))
        options.seed = seed;
    } else if (name == "--device") {
      if ((status = needValue()) &&
          (status = parseNumber(name, value, options.device)) &&
          options.device < 0)
        status = bad("--device: expected a device number >= 0");
    } else if (name == "--repeat") {
      if ((status = needValue()) &&
          (status = parseNumber(name, value, options.repeat)) &&
          options.repeat < 1)
        status = bad("--repeat: expected a number of runs >= 1");
    } else if (name == "--tolerance") {
      double tolerance = 0;
      if ((status = needValue()) &&
          (status = parseNumber(name, value, tolerance))) {
        if (!(tolerance > 0))
          status = bad("--tolerance: expected a positive number");
        options.tolerance = tolerance;
      }
    } else if (std::string *path = pathOption(options, name)) {
      if ((status = needValue()))
        *path = std::string(value);
    } else {
      status = bad("unknown option '" + std::string(name) + "' (see --help)");
    }
    if (!status)
      return status;
  }
  if (options.help)
    return options;
  for (const char *name : {"--profile-json", "--trace", "--peaks"})
    if (!pathOption(options, name)->empty() && !options.profile)
      return bad(std::string(name) + " needs --profile");
  if (options.manifest.empty() && !options.printDevice)
    return bad("expected a manifest (uta-run OUT.json [options]; see --help)");
  if (options.seed && !options.inputs.empty())
    return bad("--seed and --inputs exclude each other: the arguments come "
               "from the files");
  return options;
}
