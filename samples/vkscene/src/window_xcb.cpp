#include "window.h"

#include "vkutil.h"

#include <xcb/xcb.h>
// vulkan_xcb.h needs the xcb types, so it comes after xcb.h instead of through
// VK_USE_PLATFORM_XCB_KHR for every file.
#include <vulkan/vulkan_xcb.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace vkscene {

Window::~Window() {
    if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (connection_ != nullptr) {
        if (window_ != 0) xcb_destroy_window(connection_, window_);
        xcb_disconnect(connection_);
    }
}

void Window::open(std::uint32_t width, std::uint32_t height, const char* title) {
    const char* display = std::getenv("DISPLAY");
    int screenIndex = 0;
    connection_ = xcb_connect(nullptr, &screenIndex);
    if (xcb_connection_has_error(connection_) != 0) {
        throw Error(std::string("cannot connect to X display '") +
                    (display != nullptr ? display : "") +
                    "' (run under xvfb-run or use --headless)");
    }
    const xcb_setup_t* setup = xcb_get_setup(connection_);
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(setup);
    for (int i = 0; i < screenIndex && it.rem > 0; ++i) xcb_screen_next(&it);
    if (it.rem == 0 || it.data == nullptr) throw Error("X server reports no screen");
    const xcb_screen_t* screen = it.data;

    window_ = xcb_generate_id(connection_);
    const std::uint32_t mask = XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK;
    const std::uint32_t values[] = {screen->black_pixel, XCB_EVENT_MASK_STRUCTURE_NOTIFY};
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0,
                      static_cast<std::uint16_t>(width), static_cast<std::uint16_t>(height), 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, mask, values);
    xcb_change_property(connection_, XCB_PROP_MODE_REPLACE, window_, XCB_ATOM_WM_NAME,
                        XCB_ATOM_STRING, 8, static_cast<std::uint32_t>(std::strlen(title)), title);
    width_ = width;
    height_ = height;
    xcb_map_window(connection_, window_);
    xcb_flush(connection_);
}

VkSurfaceKHR Window::createSurface(VkInstance instance) {
    VkXcbSurfaceCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR;
    info.connection = connection_;
    info.window = window_;
    // vkCreateXcbSurfaceKHR is an extension command: fetch it through the instance so linking
    // does not depend on the loader exporting platform symbols.
    auto create = reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(
        vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"));
    if (create == nullptr) throw Error("vkCreateXcbSurfaceKHR is not available");
    check(create(instance, &info, nullptr, &surface_), "vkCreateXcbSurfaceKHR");
    instance_ = instance;
    return surface_;
}

void Window::resize(std::uint32_t width, std::uint32_t height) {
    const std::uint32_t values[] = {width, height};
    xcb_configure_window(connection_, window_,
                         XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, values);
    xcb_flush(connection_);
}

bool Window::poll() {
    bool resized = false;
    while (xcb_generic_event_t* event = xcb_poll_for_event(connection_)) {
        // The top bit of response_type marks events sent by other clients (X11 protocol).
        if ((event->response_type & 0x7f) == XCB_CONFIGURE_NOTIFY) {
            const auto* configure = reinterpret_cast<const xcb_configure_notify_event_t*>(event);
            if (configure->width != width_ || configure->height != height_) {
                width_ = configure->width;
                height_ = configure->height;
                resized = true;
            }
        }
        std::free(event);  // xcb allocates events with malloc
    }
    return resized;
}

}  // namespace vkscene
