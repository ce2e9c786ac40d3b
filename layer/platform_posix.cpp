// Platform services for Linux and Android (see platform.h). Nothing else in the layer may call
// the OS directly, so that the NDK build only has to compile this file differently.
#include "platform.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#if defined(__ANDROID__)
#include <android/log.h>
#include <sys/system_properties.h>
#endif

namespace tessera::layer {

std::optional<std::string> platform_setting(const char* env_name, const char* prop_name) {
  if (const char* v = std::getenv(env_name); v != nullptr && *v != '\0') return std::string(v);
#if defined(__ANDROID__)
  // Android apps cannot be given environment variables; `adb shell setprop debug.tessera.x v`
  // is how a layer is configured there (debug.* properties are settable without root).
  char value[PROP_VALUE_MAX] = {};
  if (__system_property_get(prop_name, value) > 0) return std::string(value);
#else
  (void)prop_name;
#endif
  return std::nullopt;
}

void platform_log(const std::string& line) {
#if defined(__ANDROID__)
  __android_log_print(ANDROID_LOG_WARN, "tessera", "%s", line.c_str());
#else
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
#endif
}

namespace {

std::string read_cmdline() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  return raw;
}

}  // namespace

std::string platform_command_line() {
  std::string raw = read_cmdline();
  for (char& c : raw) {
    if (c == '\0') c = ' ';
  }
  return raw;
}

std::string platform_resolve_path(const std::string& configured) {
#if defined(__ANDROID__)
  if (configured.empty() || configured.front() == '/') return configured;
  // An app process's argv[0] is its package name, with ":name" for a secondary process
  // (android:process); its data directory is /data/data/PACKAGE for the primary user.
  std::string package = read_cmdline();
  package = package.substr(0, package.find('\0'));
  package = package.substr(0, package.find(':'));
  if (package.empty() || package.find('/') != std::string::npos) return configured;
  return "/data/data/" + package + "/files/" + configured;
#else
  return configured;
#endif
}

}  // namespace tessera::layer
