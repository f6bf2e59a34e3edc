#pragma once
/// @file conditional_graph.cuh
/// A CUDA graph of a head and a conditional body: the head's work, then an `if` node that runs
/// the body when the head set the condition to non-zero (cudaGraphSetConditional, from one
/// thread). One launch queues a decision and its consequence without the host waiting for the
/// decision. Captured from stream work: the callables queue kernels on the stream they are given.

#include <cuda_runtime.h>

#include <cstddef>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"

namespace novamd::core {

class ConditionalGraph {
 public:
  ConditionalGraph() = default;
  ~ConditionalGraph() { reset(); }
  ConditionalGraph(const ConditionalGraph&) = delete;
  ConditionalGraph& operator=(const ConditionalGraph&) = delete;

  /// Whether a graph is captured.
  explicit operator bool() const { return exec_ != nullptr; }

  /// Captures head(stream, condition), which must set `condition` from one thread, then the
  /// conditional node with body(stream) as its body; replaces any graph captured before. The
  /// callables' buffers must stay where they are while the graph is in use.
  template <class Head, class Body>
  void capture(Head&& head, Body&& body) {
    reset();
    NOVAMD_CUDA_CHECK(cudaGraphCreate(&graph_, 0));
    cudaGraphConditionalHandle condition;
    NOVAMD_CUDA_CHECK(
        cudaGraphConditionalHandleCreate(&condition, graph_, 0, cudaGraphCondAssignDefault));
    const cudaStream_t s = stream_.get();
    NOVAMD_CUDA_CHECK(cudaStreamBeginCaptureToGraph(s, graph_, nullptr, nullptr, 0,
                                                    cudaStreamCaptureModeRelaxed));
    head(s, condition);
    cudaStreamCaptureStatus status;
    const cudaGraphNode_t* after = nullptr;
    const cudaGraphEdgeData* edges = nullptr;
    std::size_t count = 0;
    NOVAMD_CUDA_CHECK(
        cudaStreamGetCaptureInfo(s, &status, nullptr, nullptr, &after, &edges, &count));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = condition;
    params.conditional.type = cudaGraphCondTypeIf;
    params.conditional.size = 1;
    cudaGraphNode_t node;
    NOVAMD_CUDA_CHECK(cudaGraphAddNode(&node, graph_, after, edges, count, &params));
    NOVAMD_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1,
                                                          cudaStreamSetCaptureDependencies));
    NOVAMD_CUDA_CHECK(cudaStreamEndCapture(s, &graph_));
    cudaGraph_t then = params.conditional.phGraph_out[0];
    NOVAMD_CUDA_CHECK(
        cudaStreamBeginCaptureToGraph(s, then, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed));
    body(s);
    NOVAMD_CUDA_CHECK(cudaStreamEndCapture(s, &then));
    NOVAMD_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }

  /// Queues the graph on `stream`, after the stream's work so far.
  void launch(cudaStream_t stream) const { NOVAMD_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

 private:
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

  CudaStream stream_;  ///< captures only: nothing runs on it
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace novamd::core
