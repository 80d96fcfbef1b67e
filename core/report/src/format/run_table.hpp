// A run's console table as a model: which rows it shows, its columns as
// text cells, and the lines around it. The console table (report_table.cpp)
// prints it aligned; another tabular format renders the same cells, so the
// column names and units are the same in every one.
#pragma once
#include "cmdbench/report/fixed_columns.hpp"
#include "cmdbench/report/result.hpp"

#include <string>
#include <vector>

namespace cmdbench {

struct TableColumn {
    std::string header;
    bool left = false;
    std::vector<std::string> cells; // one per row
};

struct RunTable {
    RunResult shown;                    // the run with the rows that measured something
    size_t hidden = 0;                  // rows left out: steps not timed, all unmeasured or 0
    const FixedLayout *fixed = nullptr; // leading columns laid out as that tool does
    std::vector<TableColumn> columns;   // the rest; the name column first when no layout
};

RunTable run_table(const RunResult &full);

// The fixed layout's columns as plain cells (its printf padding trimmed).
std::vector<TableColumn> fixed_cells(const FixedLayout &layout, const RunResult &shown);

// "== NAME: test=T transport=X [rep 1/3] [failed: why]".
std::string run_title(const RunResult &run);
// The lines between the title and the table: where the data went, the
// rails, the link's rate.
std::vector<std::string> run_notes(const RunResult &run);
// "under load: 2 flows of throughput over tcp moved ..." and what went
// wrong with the background, for a run measured under one.
std::vector<std::string> background_lines(const RunResult &run);
// One line saying what the table leaves out, or "".
std::string hidden_note(size_t hidden);
// The CPU time the sides spent, or "".
std::string cpu_line(const RunResult &run);

} // namespace cmdbench
