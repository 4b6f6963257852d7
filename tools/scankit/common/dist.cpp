#include "common/dist.hpp"

#include <CLI/CLI.hpp>

#include "scankit/error.hpp"

namespace scankit::tools {

std::string check_gpu_count(const std::string& s) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
    return "'" + s + "' is not a whole number of GPUs (1 or more)";
  if (std::stoi(s) < 1) return "needs at least 1 GPU, not " + s;
  return {};
}

void add_dist_options(CLI::App& app, dist_cli_options& d, bool sort) {
  auto* gpus = app.add_option("--gpus", d.gpus,
                              sort ? "Run the distributed sort (scankit::dist over NCCL) on the first N GPUs of this "
                                     "process; -n is then the number of keys in all (default 2^28 per GPU). Under "
                                     "mpirun: one GPU per process, --gpus 1"
                                   : "Run the distributed primitive (scankit::dist over NCCL) on the first N GPUs "
                                     "of this process, weak scaling: -n is then the number of items per GPU "
                                     "(default 2^28). Under mpirun: one GPU per process, --gpus 1")
                   ->check(check_gpu_count)
                   ->type_name("N");
  if (sort)
    app.add_option("--keys", d.keys, "Key distribution of the distributed sort (needs --gpus): uniform, equal, zipf, "
                                     "sorted, or all")
        ->check(CLI::IsMember({"uniform", "equal", "zipf", "sorted", "all"}))
        ->needs(gpus)
        ->capture_default_str();
  if (sort)
    app.add_option("--split", d.split,
                   "How the distributed sort splits the keys among the GPUs (needs --gpus): radix (by the top 8 "
                   "bits), samples (sample sort), or automatic (radix unless the top digits are skewed)")
        ->check(CLI::IsMember({"automatic", "radix", "samples"}))
        ->needs(gpus)
        ->capture_default_str();
  if (sort)
    app.add_option("--exchange-parts", d.exchange_parts,
                   "The radix sort's exchange in N parts, each sorted while the next one arrives (needs --gpus; 0: "
                   "the default, 1: no overlap)")
        ->check(CLI::Range(0, 256))
        ->needs(gpus)
        ->type_name("N")
        ->capture_default_str();
}

int check_dist_options(const CLI::App& app, const dist_cli_options& d, std::initializer_list<const char*> unsupported) {
#ifndef SCANKIT_TOOLS_HAS_NCCL
  (void)app;
  (void)d;
  (void)unsupported;
  throw CLI::ValidationError("--gpus", "this scankit was built without NCCL (scankit::dist_nccl), so it has no "
                                       "distributed primitives on GPUs");
#else
  for (const char* name : unsupported)
    if (app.count(name) > 0) throw CLI::ValidationError("--gpus", std::string(name) + " is not supported with --gpus");
  return std::stoi(d.gpus);
#endif
}

void check_dist_value(const std::string& option, const std::string& value, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  throw CLI::ValidationError(option, "with --gpus, " + option + " must be " + list + ", not " + value);
}

#ifndef SCANKIT_TOOLS_HAS_NCCL
int run_dist_bench(const dist_bench_options&) {
  throw scankit::error("--gpus: this scankit was built without NCCL");
}
#endif

}  // namespace scankit::tools
