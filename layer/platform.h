// The only operating-system services the layer uses. Implemented once per platform in
// platform_posix.cpp (Linux and Android); the rest of the layer is portable C++ and Vulkan.
#pragma once

#include <optional>
#include <string>

namespace tessera::layer {

// A setting: the environment variable `env_name` (Linux, and Android when set for the process),
// else on Android the system property `prop_name` (e.g. debug.tessera.capture_file).
std::optional<std::string> platform_setting(const char* env_name, const char* prop_name);

// One line for the user: stderr on Linux, logcat (tag "tessera") on Android.
void platform_log(const std::string& line);

// The command line of the process, arguments separated by spaces ("" if unknown).
std::string platform_command_line();

// Where a configured file name (capture file, trigger file) lives. Linux: as given. Android: a
// relative name is put in the application's own files directory (/data/data/PACKAGE/files), the
// one place an app can always write and `adb shell run-as PACKAGE` can reach.
std::string platform_resolve_path(const std::string& configured);

}  // namespace tessera::layer
