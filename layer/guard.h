// The layer's exception boundary. A Vulkan entry point is a C function: an exception leaving it
// unwinds through the application's (and the loader's) frames, which is undefined behaviour and
// in practice std::terminate. Every hook the layer hands out through vkGet*ProcAddr is therefore
// wrapped in Guarded<>, which catches everything the recording code can throw (std::bad_alloc
// from a record's vectors, std::out_of_range, std::system_error from a mutex, ...), reports it
// once as a Warning record, and lets the application carry on with what the next layer did.
//
// The next layer's result survives the exception: hooks pass it through down() as they get it,
// so an exception while recording after the call down returns exactly what the driver returned
// (the object exists; only its record is missing). Hooks do all recording work that comes before
// their call down inside guarded(), so that the call down itself always happens.
#pragma once

#include <cstddef>
#include <exception>
#include <new>
#include <stdexcept>

#include <vulkan/vulkan.h>

namespace tessera::layer {

// Reports an exception caught at the boundary of hook `hook` (defined by the layer: one Warning
// record and one stderr line per hook and kind of failure).
void report_hook_exception(const char* hook, const char* what) noexcept;

// The outcome of the next layer's call in the hook now running on this thread.
struct DownCall {
  bool made = false;
  VkResult result = VK_SUCCESS;
};
inline thread_local DownCall t_down_call;

// Notes the next layer's result of the running hook; returns it unchanged.
inline VkResult down(VkResult r) noexcept {
  t_down_call.made = true;
  t_down_call.result = r;
  return r;
}

// The name of a hook as a template argument (C++20 class-type non-type template parameter).
template <std::size_t N>
struct HookName {
  char text[N];
  constexpr HookName(const char (&s)[N]) {  // NOLINT: implicit on purpose, HookName{"vkX"}
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

inline const char* exception_text(std::exception_ptr e) noexcept {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "unknown exception";
  }
}

// Runs recording work `f` that precedes a hook's call down; an exception is reported and
// swallowed so that the call down still happens. Returns false when `f` threw.
template <typename F>
bool guarded(const char* hook, F&& f) noexcept {
  try {
    f();
    return true;
  } catch (...) {
    report_hook_exception(hook, exception_text(std::current_exception()));
    return false;
  }
}

template <auto Fn, HookName Name>
struct Guarded;

template <typename R, typename... A, R(VKAPI_PTR* Fn)(A...), HookName Name>
struct Guarded<Fn, Name> {
  static VKAPI_ATTR R VKAPI_CALL call(A... args) noexcept {
    // Hooks can nest (a layer below calling back up through the loader): keep the outer state.
    const DownCall outer = t_down_call;
    t_down_call = {};
    try {
      if constexpr (std::is_void_v<R>) {
        Fn(args...);
        t_down_call = outer;
        return;
      } else {
        R r = Fn(args...);
        t_down_call = outer;
        return r;
      }
    } catch (...) {
      report_hook_exception(Name.text, exception_text(std::current_exception()));
      const DownCall inner = t_down_call;
      t_down_call = outer;
      if constexpr (std::is_same_v<R, VkResult>) {
        // After the call down the driver's result stands. Before it (hooks keep that part in
        // guarded(), so only a failure to even start recording lands here) nothing was created:
        // out of host memory is a result every intercepted command may return.
        return inner.made ? inner.result : VK_ERROR_OUT_OF_HOST_MEMORY;
      } else if constexpr (!std::is_void_v<R>) {
        return R{};
      }
    }
  }
};

}  // namespace tessera::layer
