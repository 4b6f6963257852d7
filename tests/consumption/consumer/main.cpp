// Downstream use of scankit: the umbrella header, a scan through the range API, and a call
// into the compiled library. Exits non-zero on any mismatch.
#include <scankit/scankit.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
  const std::vector<int> in{3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<int> out(in.size());
  const int total = scankit::inclusive_scan(in, out);
  const std::vector<int> expect{3, 4, 8, 9, 14, 23, 25, 31};
  if (out != expect || total != 31) {
    std::fprintf(stderr, "consumer: inclusive_scan gave the wrong result (total %d)\n", total);
    return 1;
  }
  std::vector<long long> big(200000, 1);
  const long long t2 = scankit::exclusive_scan(big, big, scankit::sum<long long>{}, 5LL);
  if (t2 != 200005 || big.front() != 5 || big.back() != 200004) {
    std::fprintf(stderr, "consumer: exclusive_scan gave the wrong result\n");
    return 1;
  }
  std::printf("consumer: scankit %s (CUDA backend %s) works\n",
              std::string(scankit::version()).c_str(), scankit::built_with_cuda() ? "built" : "absent");
  return 0;
}
