// tessera-synth: writes the synthetic scene's capture file (see scene.h).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "scene.h"

int main(int argc, char** argv) {
  CLI::App app{"Write a synthetic Tessera capture (no driver needed)"};
  std::string out;
  tessera::synthetic::SceneOptions scene;
  int level = 1;
  app.add_option("-o,--output", out, "Capture file to write")->required();
  app.add_option("--frames", scene.frames, "Frames to write")->check(CLI::Range(1u, 100000u));
  app.add_option("--textures", scene.textures, "Textures (each referenced in every frame)")->check(CLI::Range(0u, 4096u));
  app.add_option("--texture-size", scene.texture_size, "Base level size of the textures")->check(CLI::Range(1u, 8192u));
  app.add_option("--width", scene.width, "Presented image width")->check(CLI::Range(1u, 16384u));
  app.add_option("--height", scene.height, "Presented image height")->check(CLI::Range(1u, 16384u));
  app.add_option("--seed", scene.seed, "Random seed");
  app.add_option("--level", level, "zstd level (0 stores uncompressed)")->check(CLI::Range(-7, 19));
  CLI11_PARSE(app, argc, argv);
  tessera::capture::WriterOptions wo;
  wo.compression_level = level;
  const std::string error = tessera::synthetic::write_scene_file(out, scene, wo);
  if (!error.empty()) {
    std::fprintf(stderr, "tessera-synth: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %s (%u frames)\n", out.c_str(), scene.frames);
  return 0;
}
