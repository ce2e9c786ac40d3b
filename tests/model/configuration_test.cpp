// A scheme installs exactly the seams it declares (scheme.h, SchemeInfo::hooks): the declarations
// are what parse_configuration refuses two schemes on one seam by, so a scheme that installs
// another seam is refused when its model is made, and every product scheme passes.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "hook_doubles.h"
#include "tessera/model/configuration.h"

namespace tessera::model {
namespace {

// A scheme whose instance installs `install` and declares `declared`.
struct FakeScheme {
  FakeScheme(std::vector<HookKind> declared, std::function<void(Hooks&)> install) {
    info.name = "fake";
    info.hooks = std::move(declared);
    info.make = [install](const ParamSet&) {
      class Instance final : public SchemeInstance {
       public:
        explicit Instance(std::function<void(Hooks&)> f) : f_(std::move(f)) {}
        void install(Hooks& hooks) override { f_(hooks); }

       private:
        std::function<void(Hooks&)> f_;
      };
      return std::make_unique<Instance>(install);
    };
  }
  Configuration configuration() const {
    Configuration c;
    c.params = make_preset("mobile4");
    c.schemes = {&info};
    return c;
  }
  SchemeInfo info;
};

TEST(SchemeHooks, AnUndeclaredSeamIsRefused) {
  const FakeScheme f({}, [](Hooks& h) { h.prefetcher = std::make_shared<QueuePrefetcher>(); });
  try {
    (void)f.configuration().make_model();
    FAIL() << "not refused";
  } catch (const SchemeError& e) {
    EXPECT_STREQ(e.what(), "scheme fake declares the hooks [none] but installs [texture prefetcher]");
  }
}

TEST(SchemeHooks, ADeclaredSeamLeftEmptyIsRefused) {
  const FakeScheme f({HookKind::QuadScheduler, HookKind::FrontBuffer},
                     [](Hooks& h) { h.front_buffer = std::make_shared<LastLineBuffer>(); });
  try {
    (void)f.configuration().make_model();
    FAIL() << "not refused";
  } catch (const SchemeError& e) {
    EXPECT_STREQ(e.what(),
                 "scheme fake declares the hooks [quad scheduler, buffer in front of L1] but installs [buffer in front of L1]");
  }
}

TEST(SchemeHooks, TheDeclaredSeamsAreInstalled) {
  const FakeScheme f({HookKind::Prefetcher}, [](Hooks& h) { h.prefetcher = std::make_shared<QueuePrefetcher>(); });
  EXPECT_NO_THROW(f.configuration().make_model());
}

TEST(SchemeHooks, EveryVariantOfEverySchemeInstallsWhatItDeclares) {
  for (const SchemeInfo& s : SchemeRegistry::global().schemes()) {
    for (const SchemeVariant& v : s.variants) {
      SCOPED_TRACE(v.name);
      EXPECT_NO_THROW(parse_configuration(s.preset + "+" + v.name).make_model());
    }
  }
}

}  // namespace
}  // namespace tessera::model
