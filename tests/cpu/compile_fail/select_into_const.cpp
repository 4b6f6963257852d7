// Must not compile: the output range cannot be written.
#include <cstdint>
#include <vector>

#include "scankit/compact.hpp"

int main() {
  std::vector<int> in(4, 1);
  const std::vector<int> out(4);
  scankit::select_if(in, out, [](int x) { return x > 0; });
}
