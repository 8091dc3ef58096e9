// Type constructors on validated arguments: each computes the new type's layout and
// bounds (size, lb/ub, true lb/ub, alignment, element count, basic type). Arguments
// are checked by the caller (api_datatype*.cpp) except for overflow, found here.
// Each returns MPI_SUCCESS and the new type (no handle, no envelope: the caller sets
// combiner and arguments and publishes it), or an error class and a message in `why`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "types/datatype.hpp"

namespace shmpi::client::types {

using TypePtr = std::unique_ptr<Datatype>;

// `count` blocks of `blocklen` copies of `old`, block k at byte k * stride.
int make_regular(MPI_Count count, MPI_Count blocklen, MPI_Count stride, Datatype* old, TypePtr& out, std::string& why);
// Block i: blocklens[i] copies of types[i] (types may hold one type for all) at byte
// disps[i]. `struct_padding`: MPI_Type_create_struct's alignment rule.
int make_list(std::vector<MPI_Count> disps, std::vector<MPI_Count> blocklens, std::vector<Datatype*> types,
              bool struct_padding, TypePtr& out, std::string& why);
int make_resized(Datatype* old, MPI_Count lb, MPI_Count extent, TypePtr& out, std::string& why);
int make_dup(Datatype* old, TypePtr& out, std::string& why);
// order: MPI_ORDER_C or MPI_ORDER_FORTRAN; arrays of ndims validated entries.
int make_subarray(int ndims, const MPI_Count* sizes, const MPI_Count* subsizes, const MPI_Count* starts, int order,
                  Datatype* old, TypePtr& out, std::string& why);

}  // namespace shmpi::client::types
