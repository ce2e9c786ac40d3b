// The capture layer's exception boundary (layer/guard.h): whatever the recording code throws, a
// hook returns to the application, with the next layer's result when it was already called.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "guard.h"

namespace tessera::layer {

// The layer's reporter writes a Warning record; here the reports are collected.
std::vector<std::string> g_reports;
void report_hook_exception(const char* hook, const char* what) noexcept {
  g_reports.push_back(std::string(hook) + ": " + what);
}

namespace {

int g_driver_calls = 0;

// A next layer that creates the object (VK_INCOMPLETE makes the result distinguishable).
VkResult next_layer() {
  ++g_driver_calls;
  return VK_INCOMPLETE;
}

VKAPI_ATTR VkResult VKAPI_CALL throws_after_call_down(int* object) {
  if (down(next_layer()) == VK_INCOMPLETE) *object = 7;
  throw std::bad_alloc();  // recording the object failed
}

VKAPI_ATTR VkResult VKAPI_CALL throws_before_call_down(int*) {
  std::vector<int> v;
  (void)v.at(3);  // std::out_of_range, as from a map::at on a missing handle
  return down(next_layer());
}

VKAPI_ATTR void VKAPI_CALL void_throws(int* object) {
  ++*object;
  throw std::runtime_error("writer failed");
}

VKAPI_ATTR VkResult VKAPI_CALL clean(int* object) {
  *object = 1;
  return down(VK_SUCCESS);
}

// A hook that calls another guarded hook which throws after its own call down, then returns a
// result of its own: the inner hook's state must not leak into the outer one.
VKAPI_ATTR VkResult VKAPI_CALL outer_calls_inner(int* object) {
  const VkResult inner = Guarded<&throws_after_call_down, HookName{"vkInner"}>::call(object);
  EXPECT_EQ(inner, VK_INCOMPLETE);
  EXPECT_FALSE(t_down_call.made);  // this hook has not called down yet
  return down(VK_EVENT_SET);
}

class LayerGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    g_reports.clear();
    g_driver_calls = 0;
    t_down_call = {};
  }
};

TEST_F(LayerGuard, ExceptionAfterCallDownReturnsTheDriversResult) {
  int object = 0;
  const VkResult r = Guarded<&throws_after_call_down, HookName{"vkCreateThing"}>::call(&object);
  EXPECT_EQ(r, VK_INCOMPLETE);
  EXPECT_EQ(object, 7);
  EXPECT_EQ(g_driver_calls, 1);
  ASSERT_EQ(g_reports.size(), 1u);
  EXPECT_EQ(g_reports[0], "vkCreateThing: std::bad_alloc");
  EXPECT_FALSE(t_down_call.made);  // restored for whatever runs next on this thread
}

TEST_F(LayerGuard, ExceptionBeforeCallDownIsOutOfHostMemory) {
  int object = 0;
  const VkResult r = Guarded<&throws_before_call_down, HookName{"vkCreateOther"}>::call(&object);
  EXPECT_EQ(r, VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(g_driver_calls, 0);
  ASSERT_EQ(g_reports.size(), 1u);
  EXPECT_EQ(g_reports[0].rfind("vkCreateOther: ", 0), 0u);
}

TEST_F(LayerGuard, VoidHookReturnsAfterReporting) {
  int object = 0;
  Guarded<&void_throws, HookName{"vkCmdThing"}>::call(&object);
  EXPECT_EQ(object, 1);
  ASSERT_EQ(g_reports.size(), 1u);
  EXPECT_EQ(g_reports[0], "vkCmdThing: writer failed");
}

TEST_F(LayerGuard, CleanHookIsUntouched) {
  int object = 0;
  EXPECT_EQ((Guarded<&clean, HookName{"vkClean"}>::call(&object)), VK_SUCCESS);
  EXPECT_EQ(object, 1);
  EXPECT_TRUE(g_reports.empty());
}

TEST_F(LayerGuard, NestedHooksKeepTheirOwnCallDown) {
  int object = 0;
  EXPECT_EQ((Guarded<&outer_calls_inner, HookName{"vkOuter"}>::call(&object)), VK_EVENT_SET);
  ASSERT_EQ(g_reports.size(), 1u);
  EXPECT_EQ(g_reports[0], "vkInner: std::bad_alloc");
}

TEST_F(LayerGuard, GuardedWorkBeforeCallDownIsSwallowed) {
  bool ran_after = false;
  const bool ok = guarded("vkQueueSubmit", [] { throw std::length_error("vector"); });
  ran_after = true;  // the hook goes on to call down
  EXPECT_FALSE(ok);
  EXPECT_TRUE(ran_after);
  ASSERT_EQ(g_reports.size(), 1u);
  EXPECT_EQ(g_reports[0], "vkQueueSubmit: vector");
  EXPECT_TRUE(guarded("vkQueueSubmit", [] {}));
  EXPECT_EQ(g_reports.size(), 1u);
}

}  // namespace
}  // namespace tessera::layer
