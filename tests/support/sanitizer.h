#pragma once
// Whether this test binary was built with AddressSanitizer or ThreadSanitizer: several times
// slower (and CI compiles test code unoptimised under them), so heavy tests sample less.

namespace waymesh::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif
#else
inline constexpr bool kUnderSanitizer = false;
#endif

}  // namespace waymesh::testing
