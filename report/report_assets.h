// Files embedded into tessera at build time (report/CMakeLists.txt): the figure SQL of
// report/figures/, the paper headings of report/papers/, the views the figures share (report/views.sql) and the report page's script
// and style sheet.
#pragma once

#include <functional>
#include <map>
#include <string>

namespace tessera::report {

// report/figures/<name>.sql by name (without .sql).
const std::map<std::string, std::string, std::less<>>& embedded_figures();
// report/papers/<id>.txt by paper id.
const std::map<std::string, std::string, std::less<>>& embedded_papers();
// report/views.sql: the temporary views and series tables every figure reads.
const std::string& figure_views();
// report_page.js and report_page.css by file name.
const std::map<std::string, std::string, std::less<>>& page_assets();

}  // namespace tessera::report
