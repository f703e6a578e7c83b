//===- Stack.cpp - Running the pipeline on a large stack ------------------===//
#include "an5d/Stack.h"

#include <pthread.h>

using namespace an5d;

namespace {

struct Job {
  llvm::function_ref<int()> Fn;
  int Result = 1;
};

void *runJob(void *Arg) {
  Job *J = static_cast<Job *>(Arg);
  J->Result = J->Fn();
  return nullptr;
}

} // namespace

int an5d::runOnLargeStack(llvm::function_ref<int()> Fn) {
  Job J{Fn};
  for (size_t Bytes = PipelineStackBytes; Bytes >= (size_t(64) << 20);
       Bytes /= 2) {
    pthread_attr_t Attr;
    if (pthread_attr_init(&Attr) != 0)
      break;
    pthread_t Thread;
    bool Started = pthread_attr_setstacksize(&Attr, Bytes) == 0 &&
                   pthread_create(&Thread, &Attr, runJob, &J) == 0;
    pthread_attr_destroy(&Attr);
    if (Started) {
      pthread_join(Thread, nullptr);
      return J.Result;
    }
  }
  return Fn();
}
