// The on-screen window and its VkSurfaceKHR. The platform (X11 through xcb) is confined to
// window_xcb.cpp so another platform is one more file, not edits across the app.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

struct xcb_connection_t;

namespace vkscene {

class Window {
public:
    Window() = default;
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Connects to $DISPLAY and maps a width x height window; throws a one-line Error if there
    // is no X server (the message suggests --headless).
    void open(std::uint32_t width, std::uint32_t height, const char* title);
    // Creates the surface; it is destroyed with the window, which must therefore be destroyed
    // before the VkInstance (declare the Window after the Device).
    VkSurfaceKHR createSurface(VkInstance instance);
    // Drains pending X events so the server never blocks on a full queue; vkscene renders a
    // fixed frame count and ignores input on purpose (determinism). Returns true when the window
    // size changed (ConfigureNotify): not every WSI reports that through VK_ERROR_OUT_OF_DATE_KHR
    // or VK_SUBOPTIMAL_KHR (Mesa's software X11 path does not), so apps must watch for it.
    bool poll();
    // Asks the X server for a new window size; the swapchain then reports OUT_OF_DATE or
    // SUBOPTIMAL and is recreated.
    void resize(std::uint32_t width, std::uint32_t height);

    VkSurfaceKHR surface() const { return surface_; }

private:
    xcb_connection_t* connection_ = nullptr;
    std::uint32_t window_ = 0;
    std::uint32_t width_ = 0;
    std::uint32_t height_ = 0;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

}  // namespace vkscene
