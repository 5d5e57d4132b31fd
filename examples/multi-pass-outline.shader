// Two passes sharing code: a back-face outline pass and a blended main pass, plus a reused shadow pass.
// Render states are set at every level: the Shader sets depth, the SubShader blending, each Pass its own overrides.
Shader "Examples/MultiPassOutline" {
  // Render-state variables: the material decides these at run time.
  Bool depthWriteEnabled;
  BlendFactor sourceBlend;
  BlendFactor destinationBlend;
  RenderQueueType queueType;

  DepthState = {
    Enabled = true;
    WriteEnabled = depthWriteEnabled;
    CompareFunction = CompareFunction.LessEqual;
  }

  // GLSL shared by every pass.
  mat4 renderer_MVPMat;
  mat4 renderer_NormalMat;
  vec4 material_BaseColor;

  struct Attributes {
    vec4 POSITION;
    vec3 NORMAL;
  };

  struct Varyings {
    vec3 normalWS;
  };

  float luminance(vec3 color) {
    return dot(color, vec3(0.2126, 0.7152, 0.0722));
  }

  SubShader "Default" {
    Tags { replacementTag = "Transparent" }

    BlendState transparentBlend {
      Enabled = true;
      ColorBlendOperation = BlendOperation.Add;
      SourceColorBlendFactor = sourceBlend;
      DestinationColorBlendFactor = destinationBlend;
      SourceAlphaBlendFactor = BlendFactor.One;
      DestinationAlphaBlendFactor = BlendFactor.OneMinusSourceAlpha;
    }
    BlendState = transparentBlend;

    // GLSL shared by the passes of this subshader.
    float material_OutlineWidth;
    vec4 material_OutlineColor;

    UsePass "pbr/Default/ShadowCaster"

    Pass "Outline" {
      Tags { pipelineStage = "Forward" }

      RasterState = {
        CullMode = CullMode.Front;
        DepthBias = 1;
        SlopeScaledDepthBias = 0.5;
      }
      BlendState = {
        Enabled = false;
      }
      RenderQueueType = Opaque;

      Varyings vert(Attributes attr) {
        Varyings v;
        vec4 position = attr.POSITION;
        position.xyz += attr.NORMAL * material_OutlineWidth;
        gl_Position = renderer_MVPMat * position;
        v.normalWS = normalize((renderer_NormalMat * vec4(attr.NORMAL, 0.0)).xyz);
        return v;
      }

      void frag(Varyings v) {
        float shade = 0.5 + 0.5 * luminance(abs(v.normalWS));
        gl_FragColor = vec4(material_OutlineColor.rgb * shade, 1.0);
      }

      VertexShader = vert;
      FragmentShader = frag;
    }

    Pass "Main" {
      Number colorMask;

      StencilState stencilWrite {
        Enabled = true;
        ReferenceValue = 1;
        CompareFunctionFront = CompareFunction.Always;
        PassOperationFront = StencilOperation.Replace;
      }
      StencilState = stencilWrite;
      BlendState = {
        ColorWriteMask[0] = colorMask;
        BlendColor = Color(1.0, 0.5, 0.25);
      }
      RenderQueueType = queueType;

      Varyings vert(Attributes attr) {
        Varyings v;
        gl_Position = renderer_MVPMat * attr.POSITION;
        v.normalWS = normalize((renderer_NormalMat * vec4(attr.NORMAL, 0.0)).xyz);
        return v;
      }

      vec4 frag(Varyings v) {
        vec3 n = normalize(v.normalWS);
        float rim = 1.0 - clamp(n.z, 0.0, 1.0);
        vec3 color = material_BaseColor.rgb + vec3(rim * rim);
        return vec4(color, material_BaseColor.a);
      }

      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
