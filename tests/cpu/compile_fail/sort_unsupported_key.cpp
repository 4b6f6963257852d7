// Must not compile: the radix sorts order integers, float and double only.
#include <vector>

#include "scankit/sort.hpp"

struct point { int x, y; };

int main() {
  std::vector<point> keys(4);
  scankit::sort_keys(keys);
}
