"""Small models shared by the hook programs: built from nn layers only."""
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    """PyTorch's MNIST example, made small: conv, pool, view, linear."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.fc1 = nn.Linear(8 * 5 * 5, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.dropout1(x)
        x = x.view(-1, 8 * 5 * 5)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def small_cnn():
    return nn.Sequential(
        nn.Conv2d(3, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(6, 8, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))


def mlp():
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3))
