// Non-template parts of the library that need no GPU.
#include "scankit/scankit.hpp"

namespace scankit {

std::string_view version() noexcept { return SCANKIT_VERSION_STRING; }

bool built_with_cuda() noexcept { return SCANKIT_BUILT_WITH_CUDA != 0; }

}  // namespace scankit
