//===- SourceText.h - The user's text for the emitter ---------------------===//
#ifndef AN5DC_SOURCETEXT_H
#define AN5DC_SOURCETEXT_H

#include "an5d/CodeGen.h"
#include "an5d/Frontend.h"

#include <string>
#include <vector>

namespace an5dc {

/// The user's text around S's scop region, for the emitter: made valid C++
/// (cxxCompatibilityEdits, since nvcc compiles it as such), with '\n' line
/// breaks and no byte-order mark, its name escaped, and the -D/-U options
/// among CompilerArgs as preprocessor lines.
an5d::SourceText describeSource(an5d::SourceSession &Session,
                                const an5d::Stencil &S,
                                const std::vector<std::string> &CompilerArgs);

} // namespace an5dc

#endif
