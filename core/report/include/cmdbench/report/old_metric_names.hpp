// The metric names the shipped plugins reported before plugins could say
// what a metric means (ABI 1.2): rstream's columns from stream, cmtime's
// from rdmacm. Where rows come in (a plugin's rows as they end, a results
// file's as it is read), the metrics nobody declared get the meaning those
// names had (docs/plugin-abi.md, "Metric meaning"), so reporters only ever
// read a row's meanings.
#pragma once
#include "cmdbench/report/result.hpp"

namespace cmdbench {

// Gives each undeclared metric and histogram of `row` its old name's
// meaning, if it has one, marked from_old_name. Again after the row is
// renamed: the rules read the row's name.
void give_old_name_meanings(Row &row);

} // namespace cmdbench
