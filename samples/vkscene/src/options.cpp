#include "options.h"

#include <charconv>
#include <string_view>

namespace vkscene {

namespace {

// Strict unsigned parse: the whole string must be a decimal number within [lo, hi].
bool parseUint(std::string_view text, std::uint32_t lo, std::uint32_t hi, std::uint32_t& out) {
    std::uint64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last || text.empty() || value < lo || value > hi) {
        return false;
    }
    out = static_cast<std::uint32_t>(value);
    return true;
}

}  // namespace

const char* usage() {
    return "usage: vkscene [--frames N] [--width W] [--height H] [--headless]\n"
           "               [--present-mode fifo|mailbox|immediate] [--dump-last-frame FILE.ppm]\n"
           "               [--validate] [--frame-labels] [--frame-boundary-ext]\n"
           "  --frames N            render exactly N frames (default 100); animation depends\n"
           "                        only on the frame number, so runs are reproducible\n"
           "  --width/--height      render size (default 1280x720)\n"
           "  --headless            render to an offscreen image without a window or presents\n"
           "  --present-mode        swapchain present mode (default fifo, always available)\n"
           "  --anisotropy N        max anisotropy of the ground's sampler (default 16, capped\n"
           "                        by the device; 1 = plain trilinear)\n"
           "  --dump-last-frame F   write the last rendered frame as a binary PPM (P6)\n"
           "  --resize-at N         after N frames, halve the window (exercises swapchain\n"
           "                        recreation, as when a user resizes a game window)\n"
           "  --validate            enable VK_LAYER_KHRONOS_validation with synchronization\n"
           "                        validation; exit code 3 if it reports anything\n"
           "  --frame-labels        after each frame's submit, insert the queue debug label\n"
           "                        tessera.frame_end (VK_EXT_debug_utils): where a capture at\n"
           "                        marker boundaries ends a frame\n"
           "  --frame-boundary-ext  enable VK_EXT_frame_boundary and flag each frame's last\n"
           "                        submission (the submit headless, the present in a window)\n"
           "                        with VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT and its frame\n"
           "                        number; fails if the device does not offer it (the capture\n"
           "                        layer does at marker boundaries)\n";
}

std::optional<Options> parseOptions(int argc, char** argv, std::string& error, bool& help) {
    Options options;
    help = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        // Options taking a value accept "--opt value" and "--opt=value".
        std::string_view value;
        bool hasValue = false;
        std::string_view name = arg;
        if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            hasValue = true;
        }
        auto takeValue = [&]() -> bool {
            if (hasValue) return true;
            if (i + 1 >= argc) {
                error = "option " + std::string(name) + " needs a value";
                return false;
            }
            value = argv[++i];
            return true;
        };
        auto takeUint = [&](std::uint32_t lo, std::uint32_t hi, std::uint32_t& out) -> bool {
            if (!takeValue()) return false;
            if (!parseUint(value, lo, hi, out)) {
                error = "option " + std::string(name) + ": '" + std::string(value) +
                        "' is not a whole number in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "]";
                return false;
            }
            return true;
        };

        if (name == "--help" || name == "-h") {
            help = true;
            return std::nullopt;
        } else if (name == "--frames") {
            if (!takeUint(1, 100000000, options.frames)) return std::nullopt;
        } else if (name == "--width") {
            // 16384 is above every device's maxFramebufferWidth we care about; the device limit
            // is checked again once the device is known.
            if (!takeUint(16, 16384, options.width)) return std::nullopt;
        } else if (name == "--height") {
            if (!takeUint(16, 16384, options.height)) return std::nullopt;
        } else if (name == "--anisotropy") {
            if (!takeUint(1, 16, options.anisotropy)) return std::nullopt;
        } else if (name == "--resize-at") {
            if (!takeUint(1, 100000000, options.resizeAt)) return std::nullopt;
        } else if (name == "--headless" && !hasValue) {
            options.headless = true;
        } else if (name == "--validate" && !hasValue) {
            options.validate = true;
        } else if (name == "--frame-labels" && !hasValue) {
            options.frameLabels = true;
        } else if (name == "--frame-boundary-ext" && !hasValue) {
            options.frameBoundaryExt = true;
        } else if (name == "--present-mode") {
            if (!takeValue()) return std::nullopt;
            if (value == "fifo") {
                options.presentMode = PresentMode::Fifo;
            } else if (value == "mailbox") {
                options.presentMode = PresentMode::Mailbox;
            } else if (value == "immediate") {
                options.presentMode = PresentMode::Immediate;
            } else {
                error = "option --present-mode: '" + std::string(value) +
                        "' is not one of fifo, mailbox, immediate";
                return std::nullopt;
            }
        } else if (name == "--dump-last-frame") {
            if (!takeValue()) return std::nullopt;
            if (value.empty()) {
                error = "option --dump-last-frame needs a file name";
                return std::nullopt;
            }
            options.dumpLastFrame = std::string(value);
        } else {
            error = "unknown option '" + std::string(arg) + "' (see --help)";
            return std::nullopt;
        }
    }
    if (options.headless && options.resizeAt != 0) {
        error = "option --resize-at needs a window (drop --headless)";
        return std::nullopt;
    }
    return options;
}

}  // namespace vkscene
