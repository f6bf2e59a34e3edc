// kernel_timeline.cpp: the GPU's and the host's timeline of any CUDA program, through CUPTI's
// activity records, for machines where Nsight Systems cannot run. Built as a shared library and
// loaded by the CUDA driver as an injection:
//
//   g++ -O2 -shared -fPIC -I$CUDA/include kernel_timeline.cpp -o libkernel_timeline.so
//       -L$CUDA/lib64 -lcupti      (one command)
//   CUDA_INJECTION64_PATH=$PWD/libkernel_timeline.so KERNEL_TIMELINE=run.csv novamd run ...
//
// At exit it writes one CSV line per record: kind (kernel, memcpy, memset, sync, api), start and
// end (ns, the GPU's clock for device work, the same clock for the host's), stream id (0 for
// api), and a name (the demangled kernel, the runtime function, the sync type).
// benchmarks/timeline/summarize.py reads it.

#include <cupti.h>
#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Record {
  const char* kind;
  std::uint64_t start;
  std::uint64_t end;
  std::uint32_t stream;
  std::string name;
};

std::mutex records_mutex;
std::vector<Record>& records() {
  static auto* all = new std::vector<Record>();  // outlives the static destructors at exit
  return *all;
}

std::string demangled(const char* name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
  std::string text = status == 0 && out ? out.get() : name;
  for (char& c : text)
    if (c == ',' || c == '\n') c = ';';
  return text;
}

std::string runtime_function(CUpti_CallbackId id) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, id, &name) != CUPTI_SUCCESS || !name)
    return "runtime_" + std::to_string(id);
  return name;
}

const char* sync_type(CUpti_ActivitySynchronizationType type) {
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
      return "event_synchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
      return "stream_wait_event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
      return "stream_synchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
      return "context_synchronize";
    default:
      return "unknown";
  }
}

void keep(const CUpti_Activity* record) {
  Record out;
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      out = {"kernel", k->start, k->end, k->streamId, demangled(k->name)};
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      out = {"memcpy", m->start, m->end, m->streamId, "copy_kind_" + std::to_string(m->copyKind)};
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      out = {"memset", m->start, m->end, m->streamId, "memset"};
      break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto* s = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
      out = {"sync", s->start, s->end, s->streamId, sync_type(s->type)};
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
      const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      out = {"api", a->start, a->end, 0, runtime_function(a->cbid)};
      break;
    }
    default:
      return;
  }
  const std::lock_guard lock(records_mutex);
  records().push_back(std::move(out));
}

constexpr std::size_t kBufferBytes = 16u << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) keep(record);
  std::free(buffer);
}

void write_records() {
  cuptiActivityFlushAll(1);
  const char* path = std::getenv("KERNEL_TIMELINE");
  std::FILE* file = std::fopen(path ? path : "timeline.csv", "w");
  if (!file) {
    std::perror("kernel_timeline: cannot write the timeline");
    return;
  }
  std::fprintf(file, "kind,start_ns,end_ns,stream,name\n");
  const std::lock_guard lock(records_mutex);
  for (const auto& r : records())
    std::fprintf(file, "%s,%llu,%llu,%u,%s\n", r.kind, static_cast<unsigned long long>(r.start),
                 static_cast<unsigned long long>(r.end), r.stream, r.name.c_str());
  std::fclose(file);
}

bool enabled(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "kernel_timeline: %s failed: %s\n", what, text ? text : "?");
  return false;
}

}  // namespace

// Called by the CUDA driver once, where CUDA_INJECTION64_PATH names this library.
extern "C" int InitializeInjection() {
  if (!enabled(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "callbacks"))
    return 0;
  enabled(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "kernel records");
  enabled(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "memcpy records");
  enabled(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "memset records");
  enabled(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION), "sync records");
  enabled(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), "runtime records");
  std::atexit(write_records);
  return 1;
}
