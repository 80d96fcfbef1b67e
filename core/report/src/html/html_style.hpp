// The style both HTML pages (the comparison report and the matrix page)
// start from, so the two read as one tool's.
#pragma once

namespace cmdbench {

constexpr const char *kHtmlBaseStyle = R"(
body{font-family:sans-serif;color:#222;margin:16px auto;max-width:1320px;padding:0 16px}
h1{font-size:24px;margin:0 0 8px}h2{font-size:20px;margin:28px 0 8px;border-bottom:1px solid #ccc}
)";

} // namespace cmdbench
