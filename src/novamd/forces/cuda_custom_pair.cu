/// @file cuda_custom_pair.cu
/// `custom_pair` on the GPU: the formula written out as CUDA source (physics::to_source of its
/// tree and derivative), compiled with the kernels of forces/custom_pair_kernel.cuh by NVRTC for
/// this device, and launched over the same Verlet lists as every pair term (Verlet lists with
/// a list per particle, neighbors/neighbor_list_cuda.cuh) or over all pairs.

#include <cctype>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "novamd/core/cuda_check.cuh"
#include "novamd/core/device_buffer.cuh"
#include "novamd/core/error.hpp"
#include "novamd/core/runtime_library.cuh"
#include "novamd/custom_pair_kernel_source.hpp"
#include "novamd/forces/cuda_force_term.cuh"
#include "novamd/forces/custom_pair_kernel.cuh"
#include "novamd/neighbors/cell_dimensions.hpp"
#include "novamd/neighbors/neighbor_list_cuda.cuh"

namespace novamd::forces {
namespace {

constexpr int kBlock = 128;

template <class T>
const char* real_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

/// `text` fit for a // comment: no line breaks, no backslash (which would continue the comment
/// onto the next line), nothing unprintable.
std::string comment_text(std::string text) {
  for (char& c : text)
    if (c == '\\' || !std::isprint(static_cast<unsigned char>(c))) c = ' ';
  return text;
}

/// The source NVRTC compiles: the kernels, the formula as a struct, and the two entries.
template <class T>
std::string custom_pair_source(const physics::CustomFormula& formula) {
  std::ostringstream s;
  s << kCustomPairKernelSource << "\n\n// The formula: " << comment_text(formula.text) << "\n"
    << "using namespace novamd::forces::custom;\n"
    << "struct Formula {\n"
    << "  template <class T> __device__ static T energy(T r, const T* p) {\n"
    << "    return " << physics::to_source(formula.energy, "T") << ";\n  }\n"
    << "  template <class T> __device__ static T slope(T r, const T* p) {\n"
    << "    return " << physics::to_source(formula.derivative, "T") << ";\n  }\n};\n\n"
    << "using real = " << real_name<T>() << ";\n"
    << "extern \"C\" __global__ void custom_pair_list(const Position<real>* pos, int n, "
       "Box<real> box, Pairs<real> pairs, List list, Output out, Mode mode) {\n"
    << "  list_forces<Formula, real>(pos, n, box, pairs, list, out, mode);\n}\n"
    << "extern \"C\" __global__ void custom_pair_all(const Position<real>* pos, int n, "
       "Box<real> box, Pairs<real> pairs, Output out, Mode mode) {\n"
    << "  all_pair_forces<Formula, real>(pos, n, box, pairs, out, mode);\n}\n";
  return s.str();
}

/// Each species pair's slots (parameters and the formula's parts without r), r_c^2, energy shift
/// and F(r_c), as custom::Pairs reads them (computed in double from the host's program, then
/// rounded to T).
template <class T>
std::vector<T> pair_entries(const CustomPairSettings& s, const core::SpeciesTable& species,
                            int stride) {
  const int types = species.size();
  const int m = s.formula->slots();
  const bool cut = std::isfinite(s.cutoff);
  std::vector<T> entries(static_cast<std::size_t>(types) * types * stride, T(0));
  for (int a = 0; a < types; ++a) {
    for (int b = 0; b < types; ++b) {
      T* e = entries.data() + (static_cast<std::size_t>(a) * types + b) * stride;
      const std::vector<double> v = s.formula->slot_values(s.values_of(species, a, b));
      for (int k = 0; k < m; ++k) e[k] = static_cast<T>(v[k]);
      e[m] = cut ? static_cast<T>(s.cutoff * s.cutoff) : std::numeric_limits<T>::infinity();
      if (!cut) continue;
      const double rc = s.cutoff;
      const double v_rc = s.formula->energy_program(rc, v.data());
      const double f_rc = -s.formula->derivative_program(rc, v.data());
      if (s.truncation == physics::Truncation::ShiftEnergy) e[m + 1] = static_cast<T>(v_rc);
      if (s.truncation == physics::Truncation::ShiftForce) {
        e[m + 1] = static_cast<T>(v_rc + rc * f_rc);
        e[m + 2] = static_cast<T>(f_rc);
      }
    }
  }
  return entries;
}

template <class T>
custom::Box<T> box_of(const core::BoxView<T>& box) {
  return {{box.length.x, box.length.y, box.length.z},
          {box.inverse_length.x, box.inverse_length.y, box.inverse_length.z}};
}

custom::Output output_of(const neighbors::ForceOutputView& out) {
  custom::Output o{out.fx, out.fy, out.fz, out.energy, {}};
  for (int k = 0; k < core::kTensorComponents; ++k) o.virial[k] = out.virial[k];
  return o;
}

template <class T>
class CudaCustomPairForce final : public CudaForceTerm<T> {
  static_assert(sizeof(custom::Position<T>) == sizeof(neighbors::PairPosition<T>) &&
                    alignof(custom::Position<T>) == alignof(neighbors::PairPosition<T>) &&
                    offsetof(custom::Position<T>, type) ==
                        offsetof(neighbors::PairPosition<T>, type),
                "custom::Position must be laid out as neighbors::PairPosition");

 public:
  CudaCustomPairForce(const CustomPairSettings& s, const core::SpeciesTable& species,
                      const neighbors::NeighborSettings& neighbors, const core::Box& box,
                      bool excluded_pairs)
      : library_(core::RuntimeLibrary::shared(custom_pair_source<T>(*s.formula),
                                              "custom_pair.energy", {"--ftz=true"})),
        list_kernel_(library_->kernel("custom_pair_list")),
        all_kernel_(library_->kernel("custom_pair_all")),
        num_types_(species.size()),
        parameters_(s.formula->slots()),
        force_shift_(s.truncation == physics::Truncation::ShiftForce),
        cutoff_(s.cutoff),
        skin_(neighbors.skin_for(s.cutoff, box.shortest_edge())),
        check_every_(neighbors.check_every),
        method_(neighbors::resolve_method(neighbors, s.cutoff, box.shortest_edge())),
        excluded_pairs_(excluded_pairs) {
    params_.copy_from_host(pair_entries<T>(s, species, stride()), nullptr);
    NOVAMD_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // the host entries go out of scope
  }

  void add_to(const CudaForceInput<T>& in, neighbors::ForceOutputView out,
              neighbors::OutputMode mode, cudaStream_t stream) override {
    if (in.n == 0) return;
    if (in.block)
      throw core::InputError(
          "forces.custom_pair: does not run in a force-matrix decomposition (parallel.grid); run "
          "it on one rank");
    const custom::Mode m{mode.with_energy, mode.accumulate};
    if (traversal(in.n, in.host_box) != neighbors::NeighborMethod::NeighborList) {
      if (excluded_pairs_)
        throw core::InputError(
            "forces.custom_pair: the system has excluded pairs (bonds), which on the GPU only "
            "the Verlet lists leave out, and its box is too small for them (under three cells "
            "of cutoff + skin per axis); give a cutoff and a larger box, or run on the CPU");
      launch_all_pairs(in, out, m, stream);
      return;
    }
    if (!list_)
      list_.emplace(cutoff_, skin_, neighbors::lanes_per_target(in.n, in.resident_threads));
    list_->set_exclusions(exclusion_view(in));
    list_->evaluate_current(in.positions, in.n, in.host_box, calls_++ % check_every_ == 0,
                            !mode.accumulate, stream,
                            [&] { launch_over_list(in, out, m, stream); });
  }

  std::int64_t list_builds() const override { return list_ ? list_->builds() : 0; }
  void invalidate_lists() override {
    if (list_) list_->invalidate();
  }
  void follow_box(const core::Box& box, cudaStream_t stream) override {
    if (list_) list_->follow_box(box, stream);
  }
  std::size_t bytes() const override { return params_.bytes() + (list_ ? list_->bytes() : 0); }

  neighbors::NeighborState neighbor_state(cudaStream_t stream) const override {
    neighbors::NeighborState state{calls_, list_builds(), {}};
    if (list_) {
      state.built_at = list_->built_at_on_host(stream);
      state.built_box = list_->built_box();
    }
    return state;
  }
  void restore_neighbors(const neighbors::NeighborState& state,
                         const neighbors::PairPosition<T>* built_at, const CudaForceInput<T>& in,
                         cudaStream_t stream) override {
    calls_ = state.calls;
    list_.reset();
    if (state.built_at.size() == 0 ||
        traversal(in.n, in.host_box) != neighbors::NeighborMethod::NeighborList)
      return;
    list_.emplace(cutoff_, skin_, neighbors::lanes_per_target(in.n, in.resident_threads));
    list_->set_exclusions(exclusion_view(in));
    list_->restore(built_at, in.n, state.built_box, in.host_box, state.builds, stream);
  }

 private:
  int stride() const { return parameters_ + 3; }
  /// The table's copy in each block's shared memory (custom::table_in_shared), where it fits.
  std::size_t shared_bytes() const {
    const int entries = num_types_ * num_types_ * stride();
    return entries > custom::kSharedTableEntries ? 0 : sizeof(T) * std::size_t(entries);
  }
  custom::Pairs<T> pairs() const {
    return {params_.data(), num_types_, stride(), parameters_, force_shift_ ? 1 : 0};
  }

  /// Verlet lists where the box holds three of their cells per axis (as every pair term), also
  /// where cell lists are asked: there is no cell-list kernel of a run-time formula.
  neighbors::NeighborMethod traversal(int n, const core::Box& box) const {
    if (method_ == neighbors::NeighborMethod::AllPairs) return method_;
    return neighbors::holds_three_cells(box, cutoff_ + skin_, static_cast<std::size_t>(n))
               ? neighbors::NeighborMethod::NeighborList
               : neighbors::NeighborMethod::AllPairs;
  }

  neighbors::ExclusionView exclusion_view(const CudaForceInput<T>& in) const {
    if (!excluded_pairs_) return {};
    return {in.fields.topology.exclusion_offsets, in.fields.topology.exclusion_ids, in.fields.id,
            in.fields.topology.exclusion_span};
  }

  void launch_over_list(const CudaForceInput<T>& in, const neighbors::ForceOutputView& out,
                        custom::Mode mode, cudaStream_t stream) {
    const neighbors::NeighborListView view = list_->view();
    custom::List list{view.entries,    view.count,      view.lanes,
                      view.row_stride, view.stale.word, view.stale.epoch};
    const auto* pos = reinterpret_cast<const custom::Position<T>*>(in.positions);
    int n = in.n;
    custom::Box<T> box = box_of(in.box);
    custom::Pairs<T> p = pairs();
    custom::Output o = output_of(out);
    void* args[] = {&pos, &n, &box, &p, &list, &o, &mode};
    const long long threads = static_cast<long long>(n) * view.lanes;
    core::launch_runtime_kernel(list_kernel_,
                                dim3(static_cast<unsigned>((threads + kBlock - 1) / kBlock)),
                                dim3(kBlock), args, shared_bytes(), stream);
  }

  void launch_all_pairs(const CudaForceInput<T>& in, const neighbors::ForceOutputView& out,
                        custom::Mode mode, cudaStream_t stream) {
    const auto* pos = reinterpret_cast<const custom::Position<T>*>(in.positions);
    int n = in.n;
    custom::Box<T> box = box_of(in.box);
    custom::Pairs<T> p = pairs();
    custom::Output o = output_of(out);
    void* args[] = {&pos, &n, &box, &p, &o, &mode};
    core::launch_runtime_kernel(all_kernel_, dim3(static_cast<unsigned>((n + kBlock - 1) / kBlock)),
                                dim3(kBlock), args, shared_bytes(), stream);
  }

  std::shared_ptr<const core::RuntimeLibrary> library_;
  const void* list_kernel_;
  const void* all_kernel_;
  int num_types_, parameters_;
  bool force_shift_;
  double cutoff_, skin_;
  std::int64_t check_every_;
  std::int64_t calls_ = 0;
  neighbors::NeighborMethod method_;
  bool excluded_pairs_;
  core::DeviceBuffer<T> params_;
  std::optional<neighbors::DeviceVerletList<T>> list_;
};

}  // namespace

template <core::Precision P>
std::unique_ptr<CudaForceTerm<PairTypeOf<P>>> make_cuda_custom_pair(
    const CustomPairSettings& settings, const core::SpeciesTable& species,
    const neighbors::NeighborSettings& neighbors, const core::Box& box, bool excluded_pairs) {
  return std::make_unique<CudaCustomPairForce<PairTypeOf<P>>>(settings, species, neighbors, box,
                                                              excluded_pairs);
}

template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Double>>>
make_cuda_custom_pair<core::Precision::Double>(const CustomPairSettings&, const core::SpeciesTable&,
                                               const neighbors::NeighborSettings&, const core::Box&,
                                               bool);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Mixed>>>
make_cuda_custom_pair<core::Precision::Mixed>(const CustomPairSettings&, const core::SpeciesTable&,
                                              const neighbors::NeighborSettings&, const core::Box&,
                                              bool);
template std::unique_ptr<CudaForceTerm<PairTypeOf<core::Precision::Single>>>
make_cuda_custom_pair<core::Precision::Single>(const CustomPairSettings&, const core::SpeciesTable&,
                                               const neighbors::NeighborSettings&, const core::Box&,
                                               bool);

}  // namespace novamd::forces
