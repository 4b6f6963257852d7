// Must not compile: the output's element type differs from the input's.
#include <cstdint>
#include <vector>

#include "scankit/scan.hpp"

int main() {
  std::vector<std::uint8_t> in(4, 1);
  std::vector<int> out(4);
  scankit::inclusive_scan(in, out);
}
