// A scheme folder is all a scheme needs: tests/model/scheme_folder/fixed-core, a folder no list
// names, is collected by cmake/TesseraSchemes.cmake and registered beside every product scheme by
// a generated registry, its parameter and variant reach configurations, and its tests/ are built.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tessera/model/configuration.h"

namespace tessera::model {

void register_scheme_folder_fixture(SchemeRegistry& registry);

namespace {

std::vector<std::string> names(const SchemeRegistry& r) {
  std::vector<std::string> out;
  for (const SchemeInfo& s : r.schemes()) out.push_back(s.name);
  return out;
}

TEST(SchemeFolders, ANewFolderIsRegisteredBesideTheProductsSchemes) {
  SchemeRegistry fixture;
  register_scheme_folder_fixture(fixture);
  std::vector<std::string> expected = names(SchemeRegistry::global());
  ASSERT_FALSE(expected.empty());
  expected.push_back("fixed-core");
  EXPECT_EQ(names(fixture), expected);
  // The product's registry is built from model/schemes alone.
  EXPECT_EQ(SchemeRegistry::global().find_scheme("fixed-core"), nullptr);
}

TEST(SchemeFolders, TheProductsSchemesAreListedInTheirFoldersOrder) {
  const std::vector<std::string> n = names(SchemeRegistry::global());
  EXPECT_TRUE(std::is_sorted(n.begin(), n.end()));
  for (const char* s : {"dae", "dtexl", "dtm-nuca", "perfect-l1", "perfect-memory", "prefetch-ghb", "prefetch-mta", "tcor", "tfm"}) {
    EXPECT_NE(SchemeRegistry::global().find_scheme(s), nullptr) << s;
  }
}

TEST(SchemeFolders, TheNewSchemesParameterAndVariantReachAConfiguration) {
  SchemeRegistry fixture;
  register_scheme_folder_fixture(fixture);
  const Configuration c = parse_configuration("mobile4+fixed-core+fixed-core.core=3", fixture);
  ASSERT_EQ(c.schemes.size(), 1u);
  EXPECT_EQ(c.schemes[0]->name, "fixed-core");
  EXPECT_EQ(c.params.get_int("fixed-core.core"), 3);
  EXPECT_NO_THROW(c.make_model());
  // Combined with a product scheme on another seam (DAE: the prefetcher).
  EXPECT_NO_THROW(parse_configuration("tegra2+dae+fixed-core", fixture).make_model());
  // On the same seam as DTexL (the quad scheduler): refused by the declarations.
  EXPECT_THROW(parse_configuration("mobile4+dtexl+fixed-core", fixture), ParamError);
}

}  // namespace
}  // namespace tessera::model
