#include "policies/train/WorldModel.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <random>

using namespace llvm;
using torch::Tensor;
namespace nn = torch::nn;

namespace smartcc {

namespace {

// Categorical distributions (latents, actor) mix in 1% uniform, as DreamerV3 does: no
// probability reaches zero, so KL terms and log-probabilities stay finite.
constexpr double Unimix = 0.01;

Tensor symlog(const Tensor &X) { return X.sign() * X.abs().log1p(); }
Tensor symexp(const Tensor &X) { return X.sign() * (X.abs().exp() - 1); }

// Layers of the latent-side networks: Linear, LayerNorm, SiLU (DreamerV3's block). None of these
// networks is exported, so they are free of the shipped format's layer restrictions.
nn::Sequential blocks(int64_t In, int64_t Hidden, unsigned Layers) {
  nn::Sequential Net;
  for (unsigned I = 0; I < Layers; ++I) {
    Net->push_back(nn::Linear(I ? Hidden : In, Hidden));
    Net->push_back(nn::LayerNorm(nn::LayerNormOptions({Hidden})));
    Net->push_back(nn::SiLU());
  }
  return Net;
}

// Blocks then a linear output. A zero output layer makes reward and value predictions start at
// exactly zero, so early imagined returns are not made of noise.
nn::Sequential head(int64_t In, int64_t Hidden, int64_t Out, unsigned Layers, bool ZeroOut) {
  nn::Sequential Net = blocks(In, Hidden, Layers);
  nn::Linear Last(Hidden, Out);
  if (ZeroOut) {
    torch::NoGradGuard NoGrad;
    Last->weight.zero_();
    Last->bias.zero_();
  }
  Net->push_back(Last);
  return Net;
}

// The shipped actor: the layer kinds the compiler's ExportedModel evaluates, as PPO's actor.
nn::Sequential reactiveMLP(int64_t In, int64_t Hidden, int64_t Out) {
  return nn::Sequential(nn::Linear(In, Hidden), nn::Tanh(), nn::Linear(Hidden, Hidden), nn::Tanh(),
                        nn::Linear(Hidden, Out));
}

// Scalars (rewards, returns) regressed as a "two-hot" classification over bins evenly spaced in
// symlog space (DreamerV3): rare large IR reductions next to many zero-reward steps neither
// dominate the gradient nor get averaged away.
struct TwoHot {
  static constexpr int64_t Bins = 41;
  static constexpr double Lo = -5, Hi = 5; // symlog range: |y| up to e^5 - 1 ~ 147
  Tensor Centers = torch::linspace(Lo, Hi, Bins);

  // Y [...] -> [..., Bins]: weights on the two bins around symlog(Y).
  Tensor target(const Tensor &Y) const {
    Tensor Pos = (symlog(Y.reshape(-1)).clamp(Lo, Hi) - Lo) / (Hi - Lo) * double(Bins - 1);
    Tensor Below = Pos.floor().clamp(0, double(Bins - 2));
    Tensor Frac = (Pos - Below).unsqueeze(1);
    Tensor Index = Below.to(torch::kLong).unsqueeze(1);
    Tensor T = torch::zeros({Pos.size(0), Bins});
    T.scatter_(1, Index, 1 - Frac);
    T.scatter_(1, Index + 1, Frac);
    std::vector<int64_t> Shape = Y.sizes().vec();
    Shape.push_back(Bins);
    return T.view(Shape);
  }
  Tensor loss(const Tensor &Logits, const Tensor &Y) const {
    return -(target(Y) * torch::log_softmax(Logits, -1)).sum(-1);
  }
  Tensor mean(const Tensor &Logits) const {
    return symexp((torch::softmax(Logits, -1) * Centers).sum(-1));
  }
};

// Log-probabilities of logits [..., C] mixed with the uniform distribution.
Tensor mixedLogProbs(const Tensor &Logits) {
  return ((1 - Unimix) * torch::softmax(Logits, -1) + Unimix / double(Logits.size(-1))).log();
}

// One-hot samples of [N, Groups, Classes] log-probabilities, flattened to [N, Groups * Classes],
// with straight-through gradients (the sample's gradient is the probabilities').
Tensor sampleStraightThrough(const Tensor &LogP) {
  Tensor P = LogP.exp();
  Tensor Index = torch::multinomial(P.reshape({-1, P.size(-1)}), 1).squeeze(1);
  Tensor OneHot = torch::one_hot(Index, P.size(-1)).to(torch::kFloat32).view_as(P);
  return (OneHot + P - P.detach()).flatten(-2);
}

// KL(P || Q) of [..., Groups, Classes] log-probabilities, summed over the groups.
Tensor categoricalKL(const Tensor &LogP, const Tensor &LogQ) {
  return (LogP.exp() * (LogP - LogQ)).sum({-2, -1});
}

// The recurrent state-space model: encoder, GRU, prior, posterior and the three heads.
struct WorldModelNetImpl : nn::Module {
  int64_t Deter, Groups, Classes, Actions;
  nn::Sequential Encoder{nullptr}, Input{nullptr}, Prior{nullptr}, Posterior{nullptr},
      Decoder{nullptr}, Reward{nullptr}, Continue{nullptr};
  nn::GRUCell Cell{nullptr};

  WorldModelNetImpl(int64_t Obs, int64_t Actions, int64_t Hidden, int64_t Groups, int64_t Classes)
      : Deter(Hidden), Groups(Groups), Classes(Classes), Actions(Actions) {
    int64_t Stoch = Groups * Classes, Feat = Deter + Stoch;
    Encoder = register_module("encoder", blocks(Obs, Hidden, 2));
    Input = register_module("input", blocks(Stoch + Actions, Hidden, 1));
    Cell = register_module("cell", nn::GRUCell(nn::GRUCellOptions(Hidden, Deter)));
    Prior = register_module("prior", head(Deter, Hidden, Stoch, 1, false));
    Posterior = register_module("posterior", head(Deter + Hidden, Hidden, Stoch, 1, false));
    Decoder = register_module("decoder", head(Feat, Hidden, Obs, 2, false));
    Reward = register_module("reward", head(Feat, Hidden, TwoHot::Bins, 2, true));
    // (Python keywords such as "continue" cannot name modules in TorchScript archives.)
    Continue = register_module("continuation", head(Feat, Hidden, 1, 2, false));
  }
  int64_t stochSize() const { return Groups * Classes; }
  int64_t featureSize() const { return Deter + stochSize(); }
  Tensor actionOneHot(const Tensor &A) const {
    return torch::one_hot(A.clamp_min(0), Actions).to(torch::kFloat32);
  }
  Tensor step(const Tensor &H, const Tensor &Z, const Tensor &ActionOneHot) {
    return Cell->forward(Input->forward(torch::cat({Z, ActionOneHot}, -1)), H);
  }
  Tensor prior(const Tensor &H) {
    return mixedLogProbs(Prior->forward(H).view({-1, Groups, Classes}));
  }
  Tensor posterior(const Tensor &H, const Tensor &Embedding) {
    return mixedLogProbs(
        Posterior->forward(torch::cat({H, Embedding}, -1)).view({-1, Groups, Classes}));
  }
};
TORCH_MODULE(WorldModelNet);

// Every network and optimizer of the agent, and what else a checkpoint must carry.
struct Agent {
  WorldModelNet Model;
  nn::Sequential Actor, Critic, SlowCritic, Student;
  std::unique_ptr<torch::optim::Adam> ModelOpt, ActorOpt, CriticOpt, StudentOpt;
  double ReturnRange = 0; // EMA of the 95th - 5th percentile of imagined returns

  Agent(const WorldModelOptions &O, int64_t In, int64_t NumActions)
      : Model(In, NumActions, O.ModelHidden, O.LatentGroups, O.LatentClasses),
        Actor(head(Model->featureSize(), O.ModelHidden, NumActions, 2, false)),
        Critic(head(Model->featureSize(), O.ModelHidden, TwoHot::Bins, 2, true)),
        SlowCritic(head(Model->featureSize(), O.ModelHidden, TwoHot::Bins, 2, true)),
        Student(reactiveMLP(In, O.Hidden, NumActions)) {
    ModelOpt = std::make_unique<torch::optim::Adam>(Model->parameters(),
                                                    torch::optim::AdamOptions(O.ModelLearningRate));
    ActorOpt = std::make_unique<torch::optim::Adam>(Actor->parameters(),
                                                    torch::optim::AdamOptions(O.ActorLearningRate));
    CriticOpt = std::make_unique<torch::optim::Adam>(
        Critic->parameters(), torch::optim::AdamOptions(O.CriticLearningRate));
    StudentOpt = std::make_unique<torch::optim::Adam>(
        Student->parameters(), torch::optim::AdamOptions(O.DistillLearningRate));
    blendSlowCritic(1.0);
  }
  // SlowCritic <- (1 - Rate) SlowCritic + Rate Critic.
  void blendSlowCritic(double Rate) {
    torch::NoGradGuard NoGrad;
    std::vector<Tensor> From = Critic->parameters(), To = SlowCritic->parameters();
    for (size_t I = 0; I < To.size(); ++I)
      To[I].mul_(1 - Rate).add_(From[I], Rate);
  }
};

// One replayed step, in the world model's convention: the state reached, the action and
// (smoothed) reward that led into it, and whether it starts or ends an episode.
struct Entry {
  std::vector<float> Obs;
  int64_t PrevAction = -1; // -1 at an episode's first state
  float Reward = 0;
  bool First = false, Terminal = false;
};

// A ring of entries in collection order; windows of consecutive entries are sampled oldest to
// newest and never straddle the write position (which would join unrelated episodes).
class SequenceReplay {
public:
  explicit SequenceReplay(size_t Capacity) : Capacity(std::max<size_t>(1, Capacity)) {}
  void push(Entry E) {
    if (Buf.size() < Capacity)
      Buf.push_back(std::move(E));
    else
      Buf[Next] = std::move(E);
    Next = (Next + 1) % Capacity;
  }
  size_t size() const { return Buf.size(); }
  const Entry &at(size_t Logical) const {
    return Buf[Buf.size() < Capacity ? Logical : (Next + Logical) % Capacity];
  }
  // As tensors, oldest first: observations, previous actions, rewards, flags (1 first, 2 end).
  std::vector<Tensor> toTensors() const {
    if (Buf.empty())
      return {};
    int64_t N = int64_t(size()), In = int64_t(Buf[0].Obs.size());
    Tensor Obs = torch::empty({N, In}), Act = torch::empty({N}, torch::kLong),
           Rew = torch::empty({N}), Flags = torch::empty({N}, torch::kLong);
    float *O = Obs.data_ptr<float>(), *R = Rew.data_ptr<float>();
    int64_t *A = Act.data_ptr<int64_t>(), *F = Flags.data_ptr<int64_t>();
    for (int64_t I = 0; I < N; ++I) {
      const Entry &E = at(size_t(I));
      std::copy(E.Obs.begin(), E.Obs.end(), O + I * In);
      A[I] = E.PrevAction, R[I] = E.Reward, F[I] = (E.First ? 1 : 0) | (E.Terminal ? 2 : 0);
    }
    return {Obs, Act, Rew, Flags};
  }
  void fromTensors(const std::vector<Tensor> &T) {
    if (T.size() != 4 || T[0].dim() != 2)
      return;
    Tensor Obs = T[0].contiguous(), Act = T[1].contiguous(), Rew = T[2].contiguous(),
           Flags = T[3].contiguous();
    int64_t N = Obs.size(0), In = Obs.size(1);
    const float *O = Obs.data_ptr<float>(), *R = Rew.data_ptr<float>();
    const int64_t *A = Act.data_ptr<int64_t>(), *F = Flags.data_ptr<int64_t>();
    for (int64_t I = 0; I < N; ++I)
      push({std::vector<float>(O + I * In, O + (I + 1) * In), A[I], R[I], bool(F[I] & 1),
            bool(F[I] & 2)});
  }

private:
  size_t Capacity, Next = 0;
  std::vector<Entry> Buf;
};

// BatchSequences windows of SequenceLength entries, time-major: [L, B, ...].
struct SequenceBatch {
  Tensor Obs, PrevAction, Reward, First, Terminal;
};

SequenceBatch sampleBatch(const SequenceReplay &R, unsigned B, unsigned L, const Welford &S,
                          std::mt19937_64 &Rng) {
  std::vector<const std::vector<float> *> Rows(size_t(L) * B);
  std::vector<int64_t> Act(Rows.size());
  std::vector<float> Rew(Rows.size()), First(Rows.size()), Terminal(Rows.size());
  for (unsigned J = 0; J < B; ++J) {
    size_t Start = Rng() % (R.size() - L + 1);
    for (unsigned T = 0; T < L; ++T) {
      const Entry &E = R.at(Start + T);
      size_t K = size_t(T) * B + J;
      Rows[K] = &E.Obs, Act[K] = E.PrevAction, Rew[K] = E.Reward;
      First[K] = E.First ? 1.0f : 0.0f, Terminal[K] = E.Terminal ? 1.0f : 0.0f;
    }
  }
  int64_t Len = L, Batch = B;
  return {standardizedBatch(Rows, S).view({Len, Batch, -1}), torch::tensor(Act).view({Len, Batch}),
          torch::tensor(Rew).view({Len, Batch}), torch::tensor(First).view({Len, Batch}),
          torch::tensor(Terminal).view({Len, Batch})};
}

// DreamSmooth's reward smoothing (the "reward smoothing" of CompilerDream): the reward model
// learns a Gaussian-blurred reward sequence instead of the exact one. Which pass of a sequence
// pays off is hard to tell from Autophase counts, and a model fitting the exact sparse sequence
// tends to predict zero everywhere. Each step's reward is spread over its episode's steps with
// weights renormalized inside the episode, so an episode's total (the IR reduction) is kept.
// The stop transition is left out: its reward is zero by definition, in imagination too.
void smoothRewards(std::vector<Entry> &Episode, int64_t Stop, double Sigma) {
  size_t From = 1, To = Episode.size(); // entry 0 is the start state: no reward leads into it
  if (To > From && Episode[To - 1].PrevAction == Stop)
    --To;
  if (Sigma <= 0 || To - std::min(From, To) < 2)
    return;
  std::vector<float> Out(Episode.size(), 0.0f);
  long Radius = long(std::ceil(3 * Sigma));
  for (size_t I = From; I < To; ++I) {
    if (Episode[I].Reward == 0)
      continue;
    size_t Lo = size_t(std::max<long>(long(From), long(I) - Radius));
    size_t Hi = std::min(To - 1, I + size_t(Radius));
    std::vector<double> W;
    double Sum = 0;
    for (size_t J = Lo; J <= Hi; ++J) {
      double D = double(J) - double(I);
      W.push_back(std::exp(-D * D / (2 * Sigma * Sigma)));
      Sum += W.back();
    }
    for (size_t J = Lo; J <= Hi; ++J)
      Out[J] += float(Episode[I].Reward * W[J - Lo] / Sum);
  }
  for (size_t I = From; I < To; ++I)
    Episode[I].Reward = Out[I];
}

// Real-environment statistics of one iteration.
struct Collected {
  std::vector<double> Returns, IRRatios;
  std::vector<int64_t> Histogram;
  double RewardSum = 0;
  uint64_t Steps = 0;
};

// Index drawn from probabilities P with one uniform number from Rng (not LibTorch's generator:
// collection then depends on the seed and the step alone).
int64_t sampleIndex(const Tensor &P, std::mt19937_64 &Rng) {
  double U = std::uniform_real_distribution<double>(0, 1)(Rng), Sum = 0;
  const float *X = P.data_ptr<float>();
  for (int64_t I = 0; I < P.size(0); ++I)
    if ((Sum += X[I]) > U)
      return I;
  return P.size(0) - 1;
}

// Collection plays the shipped (distilled) actor, sampling from its distribution (whose entropy
// comes from the latent actor's entropy bonus), with Epsilon uniform actions; uniformly random
// before learning starts. Playing the student rather than the latent actor makes this DAgger:
// the student is taught the latent actor's choices on the states the student itself visits,
// which are the states it will meet when it ships; the world model learns those states too.
int64_t pickAction(Agent &A, const std::vector<float> &Obs, const Welford &S, bool Random,
                   double Epsilon, int64_t NumActions, std::mt19937_64 &Rng) {
  if (Random || std::uniform_real_distribution<double>(0, 1)(Rng) < Epsilon)
    return int64_t(Rng() % uint64_t(NumActions));
  torch::NoGradGuard NoGrad;
  Tensor P = torch::softmax(A.Student->forward(standardizedBatch({&Obs}, S)), 1).squeeze(0);
  return sampleIndex(P.contiguous(), Rng);
}

// One episode from the environment's reset state into the replay (stop and horizon as in PPO: stop
// ends an episode without a step; the horizon's last step ends it too). The state an episode ends
// in is recorded as a terminal entry so that the continuation head learns where episodes end.
void collectEpisode(EnvWorker &Env, Agent &A, const WorldModelOptions &O, int64_t Stop,
                    int64_t NumActions, Progress &P, SequenceReplay &Replay, Collected &C,
                    std::mt19937_64 &Rng) {
  std::vector<Entry> Episode;
  int64_t PrevAction = -1;
  float PrevReward = 0;
  double Return = 0;
  bool Random = P.Step < O.LearnStart;
  for (unsigned T = 0; T < O.Horizon; ++T) {
    std::vector<float> Obs = Env.observation();
    P.Stats.add(Obs);
    Episode.push_back({Obs, PrevAction, PrevReward, T == 0, false});
    int64_t Act = pickAction(A, Obs, P.Stats, Random, O.Epsilon, NumActions, Rng);
    ++C.Histogram[size_t(Act)];
    float Reward = 0;
    bool Done = Act == Stop || T + 1 == O.Horizon;
    if (Act != Stop) {
      StepResult R = Env.step(size_t(Act));
      Reward = float(R.Reward);
      Done |= R.Done;
    }
    Return += Reward, C.RewardSum += Reward;
    ++P.Step, ++C.Steps;
    PrevAction = Act, PrevReward = Reward;
    if (Done)
      break;
  }
  std::vector<float> Last = Env.observation();
  P.Stats.add(Last);
  Episode.push_back({std::move(Last), PrevAction, PrevReward, Episode.empty(), true});
  smoothRewards(Episode, Stop, O.RewardSmoothing);
  for (Entry &E : Episode)
    Replay.push(std::move(E));
  ++P.Episode;
  C.Returns.push_back(Return);
  if (Env.irInstructions())
    C.IRRatios.push_back(double(Env.clangIR()) / double(Env.irInstructions()));
}

// Sums of one iteration's update statistics (divided by the update count when logged).
struct UpdateStats {
  double Recon = 0, Reward = 0, Cont = 0, KL = 0, ModelGrad = 0;
  double Actor = 0, Critic = 0, Entropy = 0, Value = 0, Imagined = 0, ActorGrad = 0, CriticGrad = 0;
  double Distill = 0, Agreement = 0, DistillGrad = 0;
  unsigned Updates = 0;
};

// Posterior states along replayed windows: [L, B, ...] deterministic and stochastic states and
// the prior's and posterior's log-probabilities.
struct Posterior {
  Tensor H, Z, PriorLogP, PostLogP;
  Tensor features() const { return torch::cat({H, Z}, -1); }
};

Posterior observe(WorldModelNet &M, const SequenceBatch &S) {
  int64_t L = S.Obs.size(0), B = S.Obs.size(1);
  Tensor E = M->Encoder->forward(symlog(S.Obs));
  Tensor H = torch::zeros({B, M->Deter}), Z = torch::zeros({B, M->stochSize()});
  std::vector<Tensor> Hs, Zs, Priors, Posts;
  for (int64_t T = 0; T < L; ++T) {
    // Episodes start from the zero state; so does a window that starts inside an episode (the
    // observation, with its action histogram, carries most of what the history would).
    Tensor Keep = T == 0 ? torch::zeros({B, 1}) : (1 - S.First[T]).unsqueeze(1);
    H = M->step(H * Keep, Z * Keep, M->actionOneHot(S.PrevAction[T]) * Keep);
    Tensor PostLogP = M->posterior(H, E[T]);
    Z = sampleStraightThrough(PostLogP);
    Hs.push_back(H), Zs.push_back(Z), Priors.push_back(M->prior(H)), Posts.push_back(PostLogP);
  }
  return {torch::stack(Hs), torch::stack(Zs), torch::stack(Priors), torch::stack(Posts)};
}

double clipAndStep(torch::optim::Optimizer &Opt, const std::vector<Tensor> &Params,
                   const Tensor &Loss) {
  Opt.zero_grad();
  Loss.backward();
  double Norm = nn::utils::clip_grad_norm_(Params, 100.0);
  Opt.step();
  return Norm;
}

// The world-model step; returns the posterior states for the actor-critic and distillation.
Posterior trainWorld(Agent &A, const SequenceBatch &S, const WorldModelOptions &O,
                     const TwoHot &Bins, UpdateStats &U) {
  Posterior Post = observe(A.Model, S);
  Tensor F = Post.features();
  Tensor Recon = (A.Model->Decoder->forward(F) - symlog(S.Obs)).pow(2).sum(-1).mean();
  Tensor RewardLoss = Bins.loss(A.Model->Reward->forward(F), S.Reward).mean();
  Tensor ContLoss = nn::functional::binary_cross_entropy_with_logits(
      A.Model->Continue->forward(F).squeeze(-1), 1 - S.Terminal);
  // KL balancing with free bits: the prior is pulled toward the posterior harder than the
  // posterior toward the prior, and neither below FreeNats (where the KL is already small).
  Tensor Dyn = categoricalKL(Post.PostLogP.detach(), Post.PriorLogP).clamp_min(O.FreeNats);
  Tensor Rep = categoricalKL(Post.PostLogP, Post.PriorLogP.detach()).clamp_min(O.FreeNats);
  Tensor Loss =
      Recon + RewardLoss + ContLoss + O.KLDynamics * Dyn.mean() + O.KLRepresentation * Rep.mean();
  U.ModelGrad += clipAndStep(*A.ModelOpt, A.Model->parameters(), Loss);
  U.Recon += Recon.item<double>(), U.Reward += RewardLoss.item<double>();
  U.Cont += ContLoss.item<double>();
  U.KL += categoricalKL(Post.PostLogP, Post.PriorLogP).mean().item<double>();
  return Post;
}

// Rollouts of the latent actor in the world model, from given states: [H+1, N, F] features,
// [H, N] actions, predicted rewards and continuation probabilities.
struct Imagined {
  Tensor Feat, Action, Reward, Cont;
};

Imagined imagine(Agent &A, Tensor H, Tensor Z, unsigned Horizon, int64_t Stop, const TwoHot &Bins) {
  torch::NoGradGuard NoGrad;
  WorldModelNet &M = A.Model;
  std::vector<Tensor> Feats{torch::cat({H, Z}, -1)}, Actions, Rewards, Conts;
  for (unsigned K = 0; K < Horizon; ++K) {
    Tensor Act =
        torch::multinomial(mixedLogProbs(A.Actor->forward(Feats.back())).exp(), 1).squeeze(1);
    H = M->step(H, Z, M->actionOneHot(Act));
    Z = sampleStraightThrough(M->prior(H));
    Tensor F = torch::cat({H, Z}, -1);
    // Stop ends an episode without a step, by definition: no reward and no continuation, exactly
    // (the model would only approximate what is known).
    Tensor Going = (Act != Stop).to(torch::kFloat32);
    Rewards.push_back(Bins.mean(M->Reward->forward(F)) * Going);
    Conts.push_back(torch::sigmoid(M->Continue->forward(F).squeeze(-1)) * Going);
    Actions.push_back(Act), Feats.push_back(F);
  }
  return {torch::stack(Feats), torch::stack(Actions), torch::stack(Rewards), torch::stack(Conts)};
}

// TD(lambda) returns over an imagined rollout, bootstrapped with Values [H+1, N]:
// R_k = r_{k+1} + gamma c_{k+1} ((1 - lambda) v_{k+1} + lambda R_{k+1}),  R_H = v_H.
Tensor lambdaReturns(const Imagined &I, const Tensor &Values, double Gamma, double Lambda) {
  int64_t H = I.Reward.size(0);
  std::vector<Tensor> R(static_cast<size_t>(H));
  Tensor Next = Values[H];
  for (int64_t K = H - 1; K >= 0; --K) {
    Next = I.Reward[K] + Gamma * I.Cont[K] * ((1 - Lambda) * Values[K + 1] + Lambda * Next);
    R[size_t(K)] = Next;
  }
  return torch::stack(R);
}

double percentile(const Tensor &X, double Q) {
  Tensor Sorted = std::get<0>(X.flatten().sort());
  return Sorted[int64_t(Q * double(Sorted.size(0) - 1))].item<double>();
}

// Actor-critic on rollouts imagined from every posterior state of the batch.
void trainBehavior(Agent &A, const Posterior &Post, const SequenceBatch &S,
                   const WorldModelOptions &O, int64_t Stop, const TwoHot &Bins, UpdateStats &U) {
  Tensor H0 = Post.H.detach().flatten(0, 1), Z0 = Post.Z.detach().flatten(0, 1);
  Imagined I = imagine(A, H0, Z0, O.ImagineHorizon, Stop, Bins);
  int64_t Horizon = I.Action.size(0);
  Tensor Feat = I.Feat.slice(0, 0, Horizon);
  // Weight of step k: the probability that the rollout is still going (a terminal start state,
  // where no action is taken, weighs nothing).
  Tensor Cont0 = (1 - S.Terminal).flatten().unsqueeze(0);
  Tensor Weight = torch::cat({Cont0, I.Cont.slice(0, 0, Horizon - 1)}).cumprod(0);
  Tensor Returns;
  {
    torch::NoGradGuard NoGrad;
    Returns = lambdaReturns(I, Bins.mean(A.SlowCritic->forward(I.Feat)), O.Gamma, O.Lambda);
  }
  Tensor CriticLogits = A.Critic->forward(Feat);
  Tensor CriticLoss = (Weight * Bins.loss(CriticLogits, Returns)).mean();
  U.CriticGrad += clipAndStep(*A.CriticOpt, A.Critic->parameters(), CriticLoss);
  A.blendSlowCritic(O.SlowCriticRate);
  Tensor Values = Bins.mean(CriticLogits).detach();

  // Return normalization (DreamerV3): advantages divided by the returns' 5-95% range, but never
  // scaled up (max 1), so small returns are not amplified into noise.
  double Range = percentile(Returns, 0.95) - percentile(Returns, 0.05);
  A.ReturnRange = 0.99 * A.ReturnRange + 0.01 * Range;
  Tensor Advantage = (Returns - Values) / std::max(1.0, A.ReturnRange);
  Tensor LogP = mixedLogProbs(A.Actor->forward(Feat));
  Tensor Entropy = -(LogP.exp() * LogP).sum(-1);
  Tensor ActLogP = LogP.gather(-1, I.Action.unsqueeze(-1)).squeeze(-1);
  Tensor ActorLoss = -(Weight * (Advantage * ActLogP + O.EntropyCoef * Entropy)).mean();
  U.ActorGrad += clipAndStep(*A.ActorOpt, A.Actor->parameters(), ActorLoss);

  Tensor Live = Cont0.squeeze(0);
  double LiveCount = std::max(1.0, Live.sum().item<double>());
  U.Actor += ActorLoss.item<double>(), U.Critic += CriticLoss.item<double>();
  U.Entropy += ((Entropy[0] * Live).sum().item<double>()) / LiveCount;
  U.Value += (Values[0] * Live).sum().item<double>() / LiveCount;
  U.Imagined += (Returns[0] * Live).sum().item<double>() / LiveCount;
}

// Distillation of the latent actor into the shipped one (behavioral cloning, cross-entropy to
// the latent actor's full distribution) on the replayed states where an action was taken.
//
// Why distill: the latent actor decides from the RSSM state [h_t, z_t], which needs the GRU run
// over the episode's history and the posterior network: layers the compiler's ExportedModel
// does not have, and state the compiler's routine does not keep. The observation already holds
// the action histogram, so it carries most of the history; a reactive MLP over it (the input
// every trainer ships) can follow the latent actor's decisions closely, and cross-entropy to the
// full distribution (not only the argmax) keeps its ranking of the alternatives.
void distill(Agent &A, const Posterior &Post, const SequenceBatch &S, UpdateStats &U) {
  int64_t N = S.Obs.size(0) * S.Obs.size(1);
  Tensor Teacher;
  {
    torch::NoGradGuard NoGrad;
    Teacher = mixedLogProbs(A.Actor->forward(Post.features().detach())).exp().view({N, -1});
  }
  Tensor Mask = (1 - S.Terminal).flatten();
  Tensor LogP = torch::log_softmax(A.Student->forward(S.Obs.view({N, -1})), -1);
  double Count = std::max(1.0, Mask.sum().item<double>());
  Tensor Loss = (-(Teacher * LogP).sum(-1) * Mask).sum() / Count;
  U.DistillGrad += clipAndStep(*A.StudentOpt, A.Student->parameters(), Loss);
  U.Distill += Loss.item<double>();
  U.Agreement +=
      ((LogP.argmax(-1) == Teacher.argmax(-1)).to(torch::kFloat32) * Mask).sum().item<double>() /
      Count;
}

void update(Agent &A, const SequenceReplay &Replay, const WorldModelOptions &O, const Welford &S,
            int64_t Stop, const TwoHot &Bins, std::mt19937_64 &Rng, UpdateStats &U) {
  SequenceBatch Batch = sampleBatch(Replay, O.BatchSequences, O.SequenceLength, S, Rng);
  Posterior Post = trainWorld(A, Batch, O, Bins, U);
  trainBehavior(A, Post, Batch, O, Stop, Bins, U);
  distill(A, Post, Batch, U);
  ++U.Updates;
}

// Every file goes to a temporary name first, then is renamed: an interrupted save leaves the
// previous checkpoint whole (state.json, written last, says which step it is).
Error saveCheckpoint(Agent &A, const SequenceReplay &Replay, const Progress &P,
                     const std::string &Dir) {
  std::error_code EC;
  auto Save = [&](const auto &Value, const char *Name) {
    std::string Path = Dir + "/" + Name;
    torch::save(Value, Path + ".tmp");
    if (!EC)
      EC = sys::fs::rename(Path + ".tmp", Path);
  };
  Save(A.Model, "world_model.pt");
  Save(A.Actor, "actor.pt");
  Save(A.Critic, "critic.pt");
  Save(A.SlowCritic, "slow_critic.pt");
  Save(A.Student, "student.pt");
  Save(*A.ModelOpt, "model_optimizer.pt");
  Save(*A.ActorOpt, "actor_optimizer.pt");
  Save(*A.CriticOpt, "critic_optimizer.pt");
  Save(*A.StudentOpt, "student_optimizer.pt");
  Save(std::vector<Tensor>{torch::tensor({A.ReturnRange}, torch::kDouble)}, "return_range.pt");
  Save(Replay.toTensors(), "replay.pt");
  if (EC)
    return errorCodeToError(EC);
  return saveProgress(Dir, P);
}

void loadCheckpoint(Agent &A, SequenceReplay &Replay, const std::string &Dir) {
  torch::load(A.Model, Dir + "/world_model.pt");
  torch::load(A.Actor, Dir + "/actor.pt");
  torch::load(A.Critic, Dir + "/critic.pt");
  torch::load(A.SlowCritic, Dir + "/slow_critic.pt");
  torch::load(A.Student, Dir + "/student.pt");
  torch::load(*A.ModelOpt, Dir + "/model_optimizer.pt");
  torch::load(*A.ActorOpt, Dir + "/actor_optimizer.pt");
  torch::load(*A.CriticOpt, Dir + "/critic_optimizer.pt");
  torch::load(*A.StudentOpt, Dir + "/student_optimizer.pt");
  std::vector<Tensor> Range, Tensors;
  torch::load(Range, Dir + "/return_range.pt");
  A.ReturnRange = Range.empty() ? 0.0 : Range[0].item<double>();
  torch::load(Tensors, Dir + "/replay.pt");
  Replay.fromTensors(Tensors);
}

double mean(const std::vector<double> &V) {
  double S = 0;
  for (double X : V)
    S += X;
  return V.empty() ? 0.0 : S / double(V.size());
}

json::Object metricsLine(const Progress &P, const Collected &C, const UpdateStats &U,
                         size_t Replayed, double Rate) {
  json::Array Hist;
  for (int64_t H : C.Histogram)
    Hist.push_back(H);
  json::Object Line{{"trainer", "dreamer"},
                    {"episode", int64_t(P.Episode)},
                    {"step", int64_t(P.Step)},
                    {"return", mean(C.Returns)},
                    {"reward", C.Steps ? C.RewardSum / double(C.Steps) : 0.0},
                    {"ir_ratio", mean(C.IRRatios)},
                    {"actions", std::move(Hist)},
                    {"replay", int64_t(Replayed)},
                    {"steps_per_second", Rate}};
  if (double N = U.Updates) {
    for (auto [Key, Sum] : std::initializer_list<std::pair<const char *, double>>{
             {"recon_loss", U.Recon},
             {"reward_loss", U.Reward},
             {"cont_loss", U.Cont},
             {"kl", U.KL},
             {"model_grad_norm", U.ModelGrad},
             {"actor_loss", U.Actor},
             {"critic_loss", U.Critic},
             {"entropy", U.Entropy},
             {"value_mean", U.Value},
             {"imagined_return", U.Imagined},
             {"actor_grad_norm", U.ActorGrad},
             {"critic_grad_norm", U.CriticGrad},
             {"distill_loss", U.Distill},
             {"distill_agreement", U.Agreement},
             {"distill_grad_norm", U.DistillGrad}})
      Line[Key] = Sum / N;
    Line["updates"] = int64_t(U.Updates);
  }
  return Line;
}

Error train(const WorldModelOptions &O, const std::vector<CorpusModule> &Train,
            const std::vector<CorpusModule> &Validation) {
  if (!O.BatchSequences || !O.SequenceLength || !O.ImagineHorizon || !O.RolloutSteps ||
      !O.ModelHidden || !O.LatentGroups || !O.LatentClasses)
    return createStringError(inconvertibleErrorCode(),
                             "dreamer: batch sequences, sequence length, imagination horizon, "
                             "rollout steps and model sizes must be positive");
  Expected<TrainingSetup> Setup = setUpTraining(O, Train);
  if (!Setup)
    return Setup.takeError();
  EnvWorker &Env = *Setup->Env;
  const int64_t Stop = Setup->Stop, NumActions = Setup->NumActions, In = Setup->InputSize;
  const std::string &Ckpt = Setup->CheckpointDir, &Metrics = Setup->MetricsPath;
  torch::manual_seed(O.Seed);
  Agent A(O, In, NumActions);
  SequenceReplay Replay(O.ReplaySize);
  const TwoHot Bins;
  Progress P;
  Expected<bool> Resumed = loadProgress(Ckpt, P);
  if (!Resumed)
    return Resumed.takeError();
  if (*Resumed) {
    loadCheckpoint(A, Replay, Ckpt);
    outs() << "resuming at step " << P.Step << ", episode " << P.Episode << " (" << Replay.size()
           << " replayed steps)\n";
  }
  std::mt19937_64 Rng;
  auto Start = std::chrono::steady_clock::now();
  uint64_t StartStep = P.Step;

  auto Export = [&] {
    return exportPolicy(A.Student, size_t(In), "dreamer", O.SpaceName, Setup->Space, O.Horizon,
                        P, O.Seed, O.RunDir + "/model.smm", O.Observation);
  };
  while (P.Step < O.TotalSteps) {
    // Both generators restart from (seed, step) every iteration: with the replay and the
    // optimizers checkpointed, a resumed run repeats what the uninterrupted one would do.
    uint64_t IterationSeed = O.Seed * 1000003u + P.Step;
    Rng.seed(IterationSeed);
    torch::manual_seed(IterationSeed);
    Collected C;
    C.Histogram.assign(size_t(NumActions), 0);
    while (C.Steps < O.RolloutSteps) {
      const CorpusModule &M = Train[Rng() % Train.size()];
      if (Error E = Env.reset(M.Bench)) {
        consumeError(std::move(E));
        continue;
      }
      collectEpisode(Env, A, O, Stop, NumActions, P, Replay, C, Rng);
    }
    UpdateStats U;
    if (P.Step >= O.LearnStart && Replay.size() >= O.SequenceLength)
      for (unsigned I = 0; I < O.TrainUpdates; ++I)
        update(A, Replay, O, P.Stats, Stop, Bins, Rng, U);

    double Elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    double Rate = double(P.Step - StartStep) / std::max(1e-9, Elapsed);
    json::Object Line = metricsLine(P, C, U, Replay.size(), Rate);
    // Validation plays the distilled actor greedily: the figure measures what ships.
    if (!Validation.empty() && O.ValidateEvery && P.Step / O.ValidateEvery > P.Validations) {
      P.Validations = P.Step / O.ValidateEvery;
      double Score = validateGreedy(
          Env, Validation, O.ValidationModules, O.Reward, O.Horizon, Stop,
          [&](const std::vector<float> &Obs) {
            torch::NoGradGuard NoGrad;
            return A.Student->forward(standardizedBatch({&Obs}, P.Stats)).argmax(1).item<int64_t>();
          });
      Line["validation_geomean"] = Score;
      if (Error E = exportIfBest(Score, Ckpt, int64_t(P.Step), Export))
        return E;
    }
    if (Error E = saveCheckpoint(A, Replay, P, Ckpt))
      return E;
    appendMetrics(Metrics, json::Value(std::move(Line)));
    printStepProgress(P.Step, O.TotalSteps, Rate);
  }
  return exportIfNeverValidated(Ckpt, Export);
}

} // namespace

Error trainWorldModel(const WorldModelOptions &O, const std::vector<CorpusModule> &Train,
                      const std::vector<CorpusModule> &Validation) {
  return guardLibTorch([&] { return train(O, Train, Validation); });
}

} // namespace smartcc
