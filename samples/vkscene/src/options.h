// Command-line options of vkscene. Parsed by hand: the sample stays a plain Vulkan app with no
// dependency beyond the Vulkan loader and xcb, so it can be captured anywhere it builds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace vkscene {

enum class PresentMode { Fifo, Mailbox, Immediate };

struct Options {
    std::uint32_t frames = 100;       // exact number of frames rendered (and presented)
    std::uint32_t width = 1280;
    std::uint32_t height = 720;
    bool headless = false;            // render to an offscreen image, never present
    bool validate = false;            // enable VK_LAYER_KHRONOS_validation + sync validation
    PresentMode presentMode = PresentMode::Fifo;
    std::uint32_t anisotropy = 16;    // max anisotropy of the ground's sampler; 1 = trilinear
    std::string dumpLastFrame;        // PPM path for the last frame, empty = no dump
    std::uint32_t resizeAt = 0;  // windowed: halve the window after this many frames (0 = never)
    bool frameLabels = false;    // a queue debug label "tessera.frame_end" after each frame
    bool frameBoundaryExt = false;  // VK_EXT_frame_boundary: each frame's last submission ends it
};

// Parses argv. On bad input returns nothing and sets `error` to one line naming the problem;
// on --help sets `help` and returns nothing with an empty error.
std::optional<Options> parseOptions(int argc, char** argv, std::string& error, bool& help);

const char* usage();

}  // namespace vkscene
