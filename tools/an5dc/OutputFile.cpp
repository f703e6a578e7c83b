//===- OutputFile.cpp - Writing what -o names -----------------------------===//
//
// A new or single-link output is replaced atomically (temporary file and
// rename), so that a failure never leaves half a file. What a rename would
// destroy is written where it is instead: devices and FIFOs (they would
// become regular files) and files with several hard links (the other links
// would keep the old text).
//
//===----------------------------------------------------------------------===//
#include "OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

bool fail(const char *Verb, const std::string &Path, int Err) {
  llvm::errs() << "an5dc: error: cannot " << Verb << " '" << Path
               << "': " << std::strerror(Err) << "\n";
  return false;
}

/// Writes all of Text at FD's position; 0 or the errno of the failure.
int writeAll(int FD, llvm::StringRef Text) {
  while (!Text.empty()) {
    ssize_t N = ::write(FD, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return errno;
    Text = Text.drop_front(size_t(N));
  }
  return 0;
}

/// Writes Text into the existing Path (a device, a FIFO or a multiply
/// linked regular file) without replacing it; Regular truncates to Text.
bool writeInPlace(const std::string &Path, const std::string &Text,
                  bool Regular) {
  int FD = ::open(Path.c_str(), O_WRONLY | O_CLOEXEC);
  if (FD < 0)
    return fail("open", Path, errno);
  int Err = 0;
  // The blocks are reserved before the first byte changes, so that a full
  // disk fails here with the old text intact.
  if (Regular && !Text.empty())
    Err = ::posix_fallocate(FD, 0, off_t(Text.size()));
  if (!Err)
    Err = writeAll(FD, Text);
  if (!Err && Regular && ::ftruncate(FD, off_t(Text.size())) != 0)
    Err = errno;
  if (::close(FD) != 0 && !Err)
    Err = errno;
  return Err ? fail("write", Path, Err) : true;
}

/// Path with its symbolic links followed to a name that is not a link
/// (absent, here); "" with Err set on a loop or an unreadable link.
std::string followLinks(std::string Path, int &Err) {
  for (int Hops = 0; Hops < 40; ++Hops) { // the kernel's limit, ELOOP
    struct stat St;
    if (::lstat(Path.c_str(), &St) != 0 || !S_ISLNK(St.st_mode))
      return Path;
    char Buf[PATH_MAX];
    ssize_t N = ::readlink(Path.c_str(), Buf, sizeof Buf);
    if (N < 0 || size_t(N) == sizeof Buf) {
      Err = N < 0 ? errno : ENAMETOOLONG;
      return "";
    }
    std::string Target(Buf, size_t(N));
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    Path = Target[0] == '/' || Dir.empty() ? Target : Dir.str() + "/" + Target;
  }
  Err = ELOOP;
  return "";
}

/// Replaces Target (absent, or the regular file Old describes) by Text
/// through a temporary file in its directory, renamed over it; errors name
/// Path, what the user wrote.
bool replaceFile(const std::string &Path, const std::string &Target,
                 const std::string &Text, const struct stat *Old) {
  // A short name of its own, whatever the length of Target's (NAME_MAX).
  llvm::StringRef Dir = llvm::sys::path::parent_path(Target);
  llvm::SmallString<256> Model(Dir.empty() ? "." : Dir);
  llvm::sys::path::append(Model, ".an5dc-%%%%%%");
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return fail("create", Path, EC.value());
  llvm::sys::RemoveFileOnSignal(Temp);
  int Err = 0;
  if (Old) {
    // The owner can be kept only by root; the mode always (after chown,
    // which may clear set-id bits).
    (void)::fchown(FD, Old->st_uid, Old->st_gid);
    if (::fchmod(FD, Old->st_mode & 07777) != 0)
      Err = errno;
  }
  if (!Err)
    Err = writeAll(FD, Text);
  if (::close(FD) != 0 && !Err)
    Err = errno;
  if (!Err && ::rename(Temp.c_str(), Target.c_str()) != 0)
    Err = errno;
  if (Err)
    ::unlink(Temp.c_str());
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return Err ? fail("write", Path, Err) : true;
}

} // namespace

bool an5dc::writeOutputFile(const std::string &Path, const std::string &Text) {
  if (Path == "-") {
    llvm::raw_fd_ostream &OS = llvm::outs();
    OS << Text;
    OS.flush();
    if (!OS.has_error())
      return true;
    std::error_code EC = OS.error();
    OS.clear_error();
    return fail("write", "<stdout>", EC.value());
  }
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode))
      return fail("write", Path, EISDIR);
    // Multiply linked: rewritten in place so that every link reads the new
    // text, at the price of no atomic replacement (the disk space is
    // reserved first).
    if (!S_ISREG(St.st_mode) || St.st_nlink > 1)
      return writeInPlace(Path, Text, S_ISREG(St.st_mode));
    char Real[PATH_MAX];
    if (!::realpath(Path.c_str(), Real))
      return fail("write", Path, errno);
    return replaceFile(Path, Real, Text, &St);
  }
  if (errno != ENOENT)
    return fail("write", Path, errno);
  // Absent, or a symbolic link to an absent file: created there.
  int Err = 0;
  std::string Target = followLinks(Path, Err);
  if (Target.empty())
    return fail("write", Path, Err);
  return replaceFile(Path, Target, Text, nullptr);
}
