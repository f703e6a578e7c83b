//===- OutputFile.h - Writing what -o names -------------------------------===//
#ifndef AN5DC_OUTPUTFILE_H
#define AN5DC_OUTPUTFILE_H

#include <string>

namespace an5dc {

/// Writes Text where '-o Path' says: standard output for "-"; a device or
/// FIFO (directly or through symbolic links) is written as it is; a
/// regular file with several hard links is rewritten in place; otherwise
/// (an absent file or a regular file with one link, symbolic links
/// followed) Text goes to a temporary file beside the target, renamed over
/// it, with an existing target's mode and owner. False after an error
/// message; a failure leaves no file where there was none and an existing
/// file as it was.
bool writeOutputFile(const std::string &Path, const std::string &Text);

} // namespace an5dc

#endif
