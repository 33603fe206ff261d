"""captum's hook-based attributions, as its tutorials call them, on a small CNN."""
import torch
from captum.attr import (
    LayerActivation,
    LayerConductance,
    LayerGradCam,
    LayerGradientXActivation,
    LayerIntegratedGradients,
    NeuronConductance,
    NeuronGradient,
    Saliency,
)
from models import small_cnn

torch.manual_seed(0)
model = small_cnn().double().eval()
x = torch.randn(2, 3, 8, 8, dtype=torch.float64, requires_grad=True)


def show(name, attribution):
    if isinstance(attribution, tuple):
        attribution = attribution[0]
    print(name, tuple(attribution.shape), round(float(attribution.detach().sum()), 6))


show("LayerActivation", LayerActivation(model, model[4]).attribute(x))
show("LayerGradCam", LayerGradCam(model, model[4]).attribute(x, target=1))
show("LayerGradientXActivation",
     LayerGradientXActivation(model, model[0]).attribute(x, target=2))
show("LayerConductance", LayerConductance(model, model[4]).attribute(x, target=0, n_steps=8))
show("LayerIntegratedGradients",
     LayerIntegratedGradients(model, model[0]).attribute(x, target=3, n_steps=8))
show("NeuronConductance",
     NeuronConductance(model, model[4]).attribute(x, neuron_selector=(1, 2, 2), target=0,
                                                  n_steps=8))
show("NeuronGradient", NeuronGradient(model, model[4]).attribute(x, neuron_selector=(0, 1, 1)))
show("Saliency", Saliency(model).attribute(x, target=1))
